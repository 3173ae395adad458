import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply.js';
import type { Inventory } from '../../src/apply/inventory.js';
import { OWNER_ANNOTATION } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { plan, type Observation } from '../../src/plan/plan.js';
import { configMap, synthOf } from '../harness/engine.js';
import { apiError, FakeTarget } from './fake-target.js';

const ns = (name: string): K8sObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const og: K8sObject = {
  apiVersion: 'operators.coreos.com/v1',
  kind: 'OperatorGroup',
  metadata: { name: 'og', namespace: 'ops' },
  spec: {},
};
const sub: K8sObject = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name: 'sub', namespace: 'ops' },
  spec: { name: 'x', channel: 'c', source: 's', sourceNamespace: 'm' },
};
const empty: Observation = {
  live: new Map(),
  dryRun: new Map(),
  inventory: undefined,
  failedLists: [],
  unknownKinds: new Set<string>(),
};

const OWNER = 'groundwork-system/gw-inventory-p-dev';

function planOf(objects: K8sObject[], observed: Partial<Observation> = {}) {
  return plan(
    synthOf(objects, { overlay: 'dev' }).manifests,
    { ...empty, ...observed },
    { platform: 'p', overlay: 'dev', owner: OWNER },
  );
}

describe('applyPlan', () => {
  it('writes stage by stage in the order of the stage table', async () => {
    const target = new FakeTarget();
    const changes = await applyPlan(planOf([sub, og, configMap('ops', 'cfg', {}), ns('ops')]), target, {
      wait: false,
    });
    expect(changes.error).toBeUndefined();
    expect(target.log).toEqual([
      'apply Namespace/ops',
      'apply ConfigMap/cfg',
      'apply OperatorGroup/og',
      'apply Subscription/sub',
    ]);
    expect(changes.counts.created).toBe(4);
  });

  it('stops at a failing stage and returns the partial change set with the error', async () => {
    const target = new FakeTarget();
    target.failApply.set('og', [apiError(422, 'Invalid', 'spec.upgradeStrategy: Unsupported value')]);
    const changes = await applyPlan(planOf([sub, og, ns('ops')]), target, { wait: false });
    expect(changes.error?.message).toContain('stage operator-groups');
    expect(changes.entries.map((e) => `${e.action} ${e.ref.kind}`)).toEqual([
      'created Namespace',
      'failed OperatorGroup',
    ]);
    expect(target.log).not.toContain('apply Subscription/sub');
  });

  it('reports conflicts with the other manager and does not force them', async () => {
    const target = new FakeTarget();
    target.failApply.set('cfg', [
      apiError(409, 'Conflict', 'Apply failed with 1 conflict', [
        { reason: 'FieldManagerConflict', message: 'conflict with "helm" using v1', field: '.data.a' },
      ]),
    ]);
    const changes = await applyPlan(planOf([configMap('ops', 'cfg', { a: '1' })]), target, { wait: false });
    expect(changes.failed[0]).toMatchObject({ code: 'Conflict' });
    expect(changes.failed[0]!.message).toContain('.data.a (helm)');
  });

  it('explains an immutable field, and recreates only when the object asks for it', async () => {
    const immutable = () => apiError(422, 'Invalid', 'spec.selector: Invalid value: field is immutable');
    const dep = (annotations?: Record<string, string>): K8sObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'ops', ...(annotations ? { annotations } : {}) },
      spec: { selector: { matchLabels: { v: '2' } } },
    });
    const live = (d: K8sObject) => new Map([[idOf(d), { ...d, metadata: { ...d.metadata, uid: 'u' } }]]);
    const dryRun = (d: K8sObject) =>
      new Map([[idOf(d), { ...d, spec: { selector: { matchLabels: { v: '3' } } } }]]);

    const plain = dep();
    const t1 = new FakeTarget();
    t1.failApply.set('web', [immutable()]);
    const c1 = await applyPlan(planOf([plain], { live: live(plain), dryRun: dryRun(plain) }), t1, {
      wait: false,
    });
    expect(c1.failed[0]).toMatchObject({ code: 'Immutable' });
    expect(c1.failed[0]!.message).toContain('groundwork.io/on-immutable: recreate');

    const recreate = dep({ 'groundwork.io/on-immutable': 'recreate' });
    const t2 = new FakeTarget();
    t2.failApply.set('web', [immutable()]);
    const c2 = await applyPlan(planOf([recreate], { live: live(recreate), dryRun: dryRun(recreate) }), t2, {
      wait: false,
    });
    expect(c2.error).toBeUndefined();
    expect(t2.log).toEqual([
      'fail Deployment/web',
      'delete Deployment/web Foreground',
      'apply Deployment/web',
    ]);
    expect(c2.entries[0]).toMatchObject({
      action: 'configured',
      message: 'recreated (immutable field changed)',
    });
  });

  it('prunes in reverse stage order with namespaces last, and records the inventory before and after', async () => {
    const target = new FakeTarget();
    const liveObjs = [
      ns('old'),
      configMap('old', 'cm', {}),
      { ...sub, metadata: { name: 'oldsub', namespace: 'old' } },
      ns('keep-ns'),
    ].map((o) => ({
      ...o,
      metadata: { ...o.metadata, uid: 'u', annotations: { [OWNER_ANNOTATION]: OWNER } },
    }));
    for (const o of liveObjs) target.objects.set(idOf(o), o);
    const desired = [
      ns('keep-ns'),
      configMap('keep-ns', 'a', {}),
      configMap('keep-ns', 'b', {}),
      configMap('keep-ns', 'c', {}),
      configMap('keep-ns', 'd', {}),
      configMap('keep-ns', 'e', {}),
      configMap('keep-ns', 'f', {}),
    ];
    const inventory = new Set([...liveObjs.map(idOf), ...desired.map(idOf)]);
    const writes: Inventory[] = [];
    const p = planOf(desired, { live: new Map(liveObjs.map((o) => [idOf(o), o])), inventory });
    const changes = await applyPlan(p, target, {
      wait: false,
      prune: true,
      inventory: {
        previous: { platform: 'p', overlay: 'dev', revision: 'r0', objects: inventory },
        revision: 'r1',
        write: async (inv) => void writes.push(inv),
      },
    });
    expect(changes.error).toBeUndefined();
    expect(target.log.filter((l) => l.startsWith('delete'))).toEqual([
      'delete Subscription/oldsub Background',
      'delete ConfigMap/cm Background',
      'delete Namespace/old Background',
    ]);
    expect(writes).toHaveLength(2);
    expect(writes[0]!.objects.size).toBe(inventory.size); // recorded before any write: old ∪ desired
    expect([...writes[1]!.objects].sort()).toEqual(desired.map(idOf).sort());
  });

  it('never deletes an inventory object Groundwork does not own: skipped (NotOwned), dropped from the inventory', async () => {
    const target = new FakeTarget();
    const manager = (name: string, operation: string) => [
      { manager: name, operation, apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} },
    ];
    const victim = {
      ...configMap('default', 'victim', {}),
      metadata: {
        name: 'victim',
        namespace: 'default',
        uid: 'v1',
        managedFields: manager('kubectl', 'Update'),
      },
    };
    const victimNs = { ...ns('victimns'), metadata: { name: 'victimns', uid: 'v2' } };
    const others = {
      ...configMap('app', 'theirs', {}),
      metadata: {
        name: 'theirs',
        namespace: 'app',
        uid: 'v3',
        annotations: { [OWNER_ANNOTATION]: 'groundwork-system/gw-inventory-q-dev' },
      },
    };
    // Applied by a version before the annotation: Groundwork's Apply entry is its ownership.
    const legacy = {
      ...configMap('app', 'legacy', {}),
      metadata: {
        name: 'legacy',
        namespace: 'app',
        uid: 'v4',
        managedFields: manager('groundwork', 'Apply'),
      },
    };
    const liveObjs = [victim, victimNs, others, legacy] as K8sObject[];
    for (const o of liveObjs) target.objects.set(idOf(o), o);
    const desired = [configMap('app', 'a', {}), configMap('app', 'b', {})];
    const inventory = new Set([...liveObjs.map(idOf), ...desired.map(idOf)]);
    const writes: Inventory[] = [];
    const p = planOf(desired, { live: new Map(liveObjs.map((o) => [idOf(o), o])), inventory });
    expect(
      p.items
        .filter((i) => !i.desired)
        .map((i) => `${i.ref.name} ${i.action} ${i.reason ?? ''}`)
        .sort(),
    ).toEqual(['legacy prune ', 'theirs skip NotOwned', 'victim skip NotOwned', 'victimns skip NotOwned']);
    expect(p.toString()).toMatch(/ConfigMap\/default\/victim +skip \(NotOwned\)/);
    const changes = await applyPlan(p, target, {
      wait: false,
      prune: true,
      allowMassPrune: true,
      inventory: {
        previous: { platform: 'p', overlay: 'dev', revision: 'r0', objects: inventory },
        revision: 'r1',
        write: async (inv) => void writes.push(inv),
      },
    });
    expect(changes.error).toBeUndefined();
    expect(target.log.filter((l) => l.startsWith('delete'))).toEqual(['delete ConfigMap/legacy Background']);
    expect(
      changes.entries
        .filter((e) => e.code === 'NotOwned')
        .map((e) => e.ref.name)
        .sort(),
    ).toEqual(['theirs', 'victim', 'victimns']);
    expect(changes.toString()).toContain('skipped    ConfigMap/default/victim (NotOwned): not pruned');
    expect(changes.counts.skipped).toBe(3);
    expect([...writes.at(-1)!.objects].sort()).toEqual(desired.map(idOf).sort());
  });

  it('records only what was applied: a refused object is not kept, an invalid id is never written', async () => {
    const target = new FakeTarget();
    target.failApply.set('Bad_Name!!', [apiError(422, 'Invalid', 'metadata.name: Invalid value')]);
    target.failApply.set('refused', [apiError(422, 'Invalid', 'data: Invalid value')]);
    const desired = [
      ns('a'),
      configMap('a', 'ok', {}),
      configMap('a', 'Bad_Name!!', {}),
      configMap('a', 'refused', {}),
    ];
    const writes: Inventory[] = [];
    const changes = await applyPlan(planOf(desired, { inventory: new Set() }), target, {
      wait: false,
      inventory: { previous: undefined, revision: 'r1', write: async (inv) => void writes.push(inv) },
    });
    expect((changes.error as { code?: string }).code).toBe('StageFailed');
    expect(writes).toHaveLength(2);
    expect([...writes[0]!.objects].sort()).toEqual([
      '_a__Namespace',
      'a_ok__ConfigMap',
      'a_refused__ConfigMap',
    ]);
    // After the failed stage the inventory is set to what exists: the refused object is forgotten.
    expect([...writes[1]!.objects].sort()).toEqual(['_a__Namespace', 'a_ok__ConfigMap']);
  });

  it('does not record a create-only object that was not created (its operator is not installed yet)', async () => {
    const target = new FakeTarget();
    target.unserved.add('argoproj.io/v1beta1/ArgoCD');
    const once: K8sObject = {
      apiVersion: 'argoproj.io/v1beta1',
      kind: 'ArgoCD',
      metadata: {
        name: 'a',
        namespace: 'ops',
        annotations: { 'groundwork.io/operator': 'ops/sub', 'groundwork.io/apply': 'create-only' },
      },
    };
    const writes: Inventory[] = [];
    const changes = await applyPlan(
      planOf([ns('ops'), once], { unknownKinds: new Set(['argoproj.io/v1beta1/ArgoCD']) }),
      target,
      {
        wait: false,
        inventory: { previous: undefined, revision: 'r1', write: async (inv) => void writes.push(inv) },
      },
    );
    expect(changes.entries.find((e) => e.ref.kind === 'ArgoCD')).toMatchObject({ code: 'AwaitsOperator' });
    // Recorded, the next plan would read it as "created once, since deleted" and never create it.
    expect(writes.flatMap((w) => [...w.objects])).not.toContain('ops_a_argoproj.io_ArgoCD');
  });

  it('stops starting new writes once aborted and says so', async () => {
    const target = new FakeTarget();
    const controller = new AbortController();
    const changes = await applyPlan(
      planOf([ns('a'), configMap('a', 'x', {}), configMap('a', 'y', {})]),
      target,
      {
        wait: false,
        signal: controller.signal,
        listener: (e) => e.type === 'stage-done' && controller.abort(),
      },
    );
    expect((changes.error as { code?: string }).code).toBe('Interrupted');
    expect(target.log).toEqual(['apply Namespace/a']);
  });

  it('skips operands whose kind is not served yet when not waiting', async () => {
    const target = new FakeTarget();
    target.unserved.add('argoproj.io/v1beta1/ArgoCD');
    const argocd: K8sObject = {
      apiVersion: 'argoproj.io/v1beta1',
      kind: 'ArgoCD',
      metadata: { name: 'a', namespace: 'ops', annotations: { 'groundwork.io/operator': 'ops/sub' } },
    };
    const changes = await applyPlan(
      planOf([argocd], { unknownKinds: new Set(['argoproj.io/v1beta1/ArgoCD']) }),
      target,
      { wait: false },
    );
    expect(changes.entries[0]).toMatchObject({ action: 'skipped', code: 'AwaitsOperator' });
    expect(changes.error).toBeUndefined();
  });

  it('returns what it did as a value and leaves the options it was given as they were', async () => {
    const previous: Inventory = { platform: 'p', overlay: 'dev', revision: 'r0', objects: new Set() };
    const inventory = { previous, revision: 'r1', write: async () => undefined };
    const opts = { wait: false, inventory };
    const changes = await applyPlan(planOf([ns('a'), configMap('a', 'x', {})]), new FakeTarget(), opts);
    expect(changes.counts.created).toBe(2);
    expect(opts.inventory).toBe(inventory);
    expect(inventory.previous).toBe(previous);
    expect(previous.objects.size).toBe(0);
  });

  it('keeps what a stage wrote when its hook throws, and records it in the inventory', async () => {
    const writes: Inventory[] = [];
    const changes = await applyPlan(planOf([ns('a'), configMap('a', 'x', {})]), new FakeTarget(), {
      wait: false,
      hooks: {
        resources: {
          check: async () => {
            throw new Error('the hook broke');
          },
        },
      },
      inventory: { previous: undefined, revision: 'r1', write: async (inv) => void writes.push(inv) },
    });
    expect(changes.error?.message).toBe('the hook broke');
    expect(changes.entries.map((e) => `${e.action} ${e.ref.kind}`)).toEqual([
      'created Namespace',
      'created ConfigMap',
    ]);
    expect([...writes.at(-1)!.objects].sort()).toEqual(['_a__Namespace', 'a_x__ConfigMap']);
  });
});
