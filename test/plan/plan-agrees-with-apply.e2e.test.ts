import { execFileSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { driftOf } from '../../src/reconcile/drift-of.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-plan-apply' });
const REV = 'main@sha1:0000000000000000000000000000000000000004';

function deployment(ns: string, app = 'web', annotations?: Record<string, string>): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns, ...(annotations ? { annotations } : {}) },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app, tier: 'front' } },
        spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'A', value: 'x'.repeat(400) }] }] },
      },
    },
  } as K8sObject;
}

async function session(): Promise<ClusterSession> {
  return new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }), {
    inventoryNamespace: cluster.namespace,
  });
}

async function reconcile(s: ClusterSession, objects: readonly K8sObject[]) {
  const observed = await observeAndPlan(s, synthOf(objects, { overlay: 'agree' }), { revision: REV });
  const changes = await applyObserved(s, observed, { revision: REV, wait: false });
  return { observed, changes };
}

describe('plan says what apply will do', () => {
  it('names the /scale writer of spec.replicas as a conflict, in plan, drift and apply alike', async () => {
    const s = await session();
    expect((await reconcile(s, [deployment(cluster.namespace)])).changes.error).toBeUndefined();
    // kubectl scale writes through the /scale subresource (managedFields: subresource "scale").
    execFileSync(inject('kubectl'), [
      '--kubeconfig',
      cluster.kubeconfig,
      '-n',
      cluster.namespace,
      'scale',
      'deployment/web',
      '--replicas=5',
    ]);

    const { observed, changes } = await reconcile(s, [deployment(cluster.namespace)]);
    const planned = observed.plan.problems.map((i) => ({ id: i.id, code: i.problem?.code }));
    expect(planned).toEqual([{ id: observed.plan.items[0]!.id, code: 'Conflict' }]);
    expect(observed.plan.items[0]!.problem?.conflicts).toEqual([
      { manager: 'kubectl', field: '/spec/replicas' },
    ]);
    expect(driftOf(observed)[0]?.fields).toEqual([
      { path: '/spec/replicas', expected: 1, actual: 5, manager: 'kubectl' },
    ]);
    // Apply fails on exactly the objects plan said it would, for the same reason.
    expect(changes.failed.map((f) => ({ id: f.id, code: f.code }))).toEqual(planned);
    s.client.close();
  });

  it('plans a recreate for an immutable change that asks for it, and apply recreates', async () => {
    const s = await session();
    const ns = cluster.namespace;
    expect((await reconcile(s, [deployment(ns, 'v1')])).changes.error).toBeUndefined();
    const { observed, changes } = await reconcile(s, [
      deployment(ns, 'v2', { 'groundwork.io/on-immutable': 'recreate' }),
    ]);
    expect(observed.plan.problems).toEqual([]);
    expect(observed.plan.items[0]).toMatchObject({ action: 'update', reason: 'Recreate' });
    expect(changes.error).toBeUndefined();
    expect(changes.entries[0]).toMatchObject({
      action: 'configured',
      message: 'recreated (immutable field changed)',
    });
    s.client.close();
  });

  it('explains an immutable change without the recreate policy once, trimmed, with the hint first', async () => {
    const s = await session();
    const ns = cluster.namespace;
    expect((await reconcile(s, [deployment(ns, 'v1')])).changes.error).toBeUndefined();
    const { observed, changes } = await reconcile(s, [deployment(ns, 'v2')]);
    const problem = observed.plan.items[0]!.problem!;
    expect(problem.code).toBe('Immutable');
    expect(
      problem.message.startsWith(
        'a changed field is immutable; annotate groundwork.io/on-immutable: recreate',
      ),
    ).toBe(true);
    expect(problem.message).toContain('spec.selector');
    // The server's message dumps the selector and the pod template (kilobytes with the 400-char env value).
    expect(problem.message.length).toBeLessThan(500);
    expect(problem.message).not.toContain('x'.repeat(100));
    const failure = changes.failed[0]!;
    expect(failure.code).toBe('Immutable');
    expect(failure.message!.length).toBeLessThan(600);
    expect(changes.toString().split('groundwork.io/on-immutable').length - 1).toBe(1);
    s.client.close();
  });

  it('says a kind nothing serves is not served (and which CRD would), and apply fails it without waiting', async () => {
    const s = await session();
    const widget = {
      apiVersion: 'nowhere.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: cluster.namespace },
      spec: {},
    } as K8sObject;
    const { observed, changes } = await reconcile(s, [widget]);
    const item = observed.plan.items[0]!;
    expect(item.reason).toBeUndefined();
    expect(item.problem?.code).toBe('KindNotServed');
    expect(item.problem?.message).toBe(
      'Widget (nowhere.example.com/v1) is not served by the cluster and no CRD in this platform defines it; install its CRD (likely widgets.nowhere.example.com) or the operator that brings it',
    );
    expect(changes.failed.map((f) => f.code)).toEqual(['KindNotServed']);
    s.client.close();
  });
});
