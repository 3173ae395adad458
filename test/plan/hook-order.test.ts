import { describe, expect, it } from 'vitest';
import { policyOf } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { idOf, refOf } from '../../src/core/object-id.js';
import { stageWrites } from '../../src/plan/hook-order.js';
import type { PlanItem } from '../../src/plan/types.js';

function item(kind: string, name: string, weight?: string, apiVersion = 'v1'): PlanItem {
  const desired: K8sObject = {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: 'n',
      ...(weight === undefined ? {} : { annotations: { 'groundwork.io/hook-weight': weight } }),
    },
  };
  return {
    id: idOf(desired),
    ref: refOf(desired),
    stage: 'namespaces',
    action: 'create',
    diff: [],
    policy: policyOf(desired),
    desired,
  };
}

const names = (items: readonly PlanItem[]) => items.map((i) => `${i.ref.kind}/${i.ref.name}`);

describe('stageWrites', () => {
  it('puts the objects first, in plan order, and the hooks after them by ascending weight', () => {
    const w = stageWrites([
      item('ConfigMap', 'config', '0'),
      item('ServiceAccount', 'app'),
      item('Job', 'migrate', '-5', 'batch/v1'),
      item('Namespace', 'n'),
      item('Secret', 'late', '10'),
    ]);
    expect(names(w.objects)).toEqual(['ServiceAccount/app', 'Namespace/n']);
    expect(names(w.hooks)).toEqual(['Job/migrate', 'ConfigMap/config', 'Secret/late']);
  });

  it('breaks a weight tie by name, then by kind in helm 3 install order, unknown kinds last by name', () => {
    const w = stageWrites([
      item('Job', 'admission-create', '0', 'batch/v1'),
      item('Widget', 'admission', '0', 'example.com/v1'),
      item('RoleBinding', 'admission', '0', 'rbac.authorization.k8s.io/v1'),
      item('Gadget', 'admission', '0', 'example.com/v1'),
      item('ServiceAccount', 'admission', '0'),
      item('Role', 'admission', '0', 'rbac.authorization.k8s.io/v1'),
    ]);
    expect(names(w.hooks)).toEqual([
      'ServiceAccount/admission',
      'Role/admission',
      'RoleBinding/admission',
      'Gadget/admission',
      'Widget/admission',
      'Job/admission-create',
    ]);
  });

  it('reads a weight that is not an integer as 0, as helm does, and orders negative weights numerically', () => {
    const w = stageWrites([
      item('ConfigMap', 'b', 'x'),
      item('ConfigMap', 'a', '-10'),
      item('ConfigMap', 'c', '-9'),
      item('ConfigMap', 'd', '2'),
    ]);
    expect(names(w.hooks)).toEqual(['ConfigMap/a', 'ConfigMap/c', 'ConfigMap/b', 'ConfigMap/d']);
  });

  it('leaves items without a desired object (prunes) with the objects, and changes nothing', () => {
    const prune = { ...item('ConfigMap', 'gone', '-1'), desired: undefined, action: 'prune' as const };
    const input = [prune, item('Job', 'j', '0', 'batch/v1')];
    const before = JSON.stringify(input);
    const w = stageWrites(input);
    expect(w.objects).toEqual([prune]);
    expect(names(w.hooks)).toEqual(['Job/j']);
    expect(JSON.stringify(input)).toBe(before);
  });
});
