import { describe, expect, it } from 'vitest';
import { policyOf } from '../../src/core/annotations.js';
import { Plan } from '../../src/plan/plan-result.js';
import { forceOutOfBand, isManualManager } from '../../src/plan/out-of-band.js';
import type { PlanItem } from '../../src/plan/types.js';

const applied = {
  manager: 'groundwork',
  operation: 'Apply' as const,
  apiVersion: 'v1',
  fieldsType: 'FieldsV1',
};
const conflicted = (name: string, managers: string[], managedFields = [applied]): PlanItem => ({
  id: `v1__ConfigMap__ns__${name}`,
  ref: { group: '', kind: 'ConfigMap', namespace: 'ns', name },
  stage: 'resources',
  action: 'update',
  diff: [],
  policy: policyOf({ metadata: { name } }),
  live: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', managedFields } },
  problem: {
    code: 'Conflict',
    message: 'conflict',
    conflicts: managers.map((manager) => ({ manager, field: '/data/v' })),
  },
});

describe('forceOutOfBand', () => {
  it('forces only conflicts that are all kubectl edits of objects Groundwork applied', () => {
    const plan = new Plan({
      platform: 'p',
      overlay: 'dev',
      items: [
        conflicted('edited', ['kubectl-edit', 'kubectl-scale']),
        conflicted('mixed', ['kubectl-edit', 'hpa-controller']),
        conflicted('never-applied', ['kubectl-edit'], []),
      ],
      failedLists: [],
      desiredCount: 3,
      inventorySize: 3,
    });
    const out = forceOutOfBand(plan, { fieldManager: 'groundwork' });
    expect(out.items.map((i) => [i.ref.name, i.policy.forceConflicts, i.problem?.code])).toEqual([
      ['edited', true, undefined],
      ['mixed', false, 'Conflict'],
      ['never-applied', false, 'Conflict'],
    ]);
    expect(out.items[0]!.message).toBe(
      'restores 2 field(s) changed out of band by kubectl-edit, kubectl-scale',
    );
    expect(plan.items[0]!.problem?.code).toBe('Conflict');
  });

  it.each([
    ['kubectl-edit', true],
    ['kubectl', true],
    ['kubectl-client-side-apply', true],
    ['kube-controller-manager', false],
    ['groundwork', false],
  ])('%s is manual: %s', (manager, manual) => expect(isManualManager(manager)).toBe(manual));
});
