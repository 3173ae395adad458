// Fixtures for the agent's pure-decision tests (cycle-decision.test.ts, sync-control.test.ts).
import { policyOf } from '../../src/core/annotations.js';
import { idOf, refOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import { Plan } from '../../src/plan/plan-result.js';
import type { PlanAction } from '../../src/plan/types.js';
import { configMap, synthOf } from './engine.js';

/** A Subscription, the kind whose apply runs the OLM hooks. */
export const subscription: K8sObject = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name: 'op', namespace: 'ops' },
  spec: { name: 'op', channel: 'stable', source: 'c', sourceNamespace: 'm' },
};

/** A plan of `[object, action]` items (stage `resources`; diffs left empty). */
export function planOf(items: [K8sObject, PlanAction][]): Plan {
  return new Plan({
    platform: 'p',
    overlay: 'dev',
    items: items.map(([o, action]) => ({
      id: idOf(o),
      ref: refOf(o),
      stage: 'resources',
      action,
      diff: [],
      policy: policyOf(o),
      ...(action === 'prune' ? { live: o } : { desired: o }),
    })),
    failedLists: [],
    desiredCount: items.filter(([, a]) => a !== 'prune').length,
    inventorySize: undefined,
  });
}

/** ConfigMap `a` at two values and `b`, and two revisions: synth1 = [a1, b], synth2 = [a2, b]. */
export const a1 = configMap('ns', 'a', { v: '1' });
export const a2 = configMap('ns', 'a', { v: '2' });
export const b = configMap('ns', 'b', { v: '1' });
export const synth1 = synthOf([a1, b], { overlay: 'dev' });
export const synth2 = synthOf([a2, b], { overlay: 'dev' });
