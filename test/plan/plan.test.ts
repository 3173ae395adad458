import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { needsDryRun, plan, type Observation } from '../../src/plan/plan.js';
import { stageOf } from '../../src/core/stages.js';
import { configMap, synthOf } from '../harness/engine.js';

const withManaged = (obj: K8sObject, fields: Record<string, unknown>, manager = 'groundwork'): K8sObject => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    uid: 'u1',
    resourceVersion: '7',
    managedFields: [
      { manager, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields },
    ],
  },
});

function observation(partial: Partial<Observation>): Observation {
  return {
    live: new Map(),
    dryRun: new Map(),
    inventory: undefined,
    failedLists: [],
    unknownKinds: new Set(),
    ...partial,
  };
}

describe('plan', () => {
  const a = configMap('n', 'a', { x: '1' });
  const b = configMap('n', 'b', { y: '2' });
  const synth = synthOf([a, b], { overlay: 'dev' });

  it('creates what is missing and leaves equal objects alone without asking the server', () => {
    const live = new Map([[idOf(a), withManaged(a, { 'f:data': { 'f:x': {} } })]]);
    expect(needsDryRun(synth.manifests, live)).toEqual([]);
    const p = plan(synth.manifests, observation({ live }), { platform: 'p', overlay: 'dev' });
    expect(p.items.map((i) => [i.ref.name, i.action])).toEqual([
      ['a', 'unchanged'],
      ['b', 'create'],
    ]);
    expect(p.hasChanges).toBe(true);
  });

  it('turns a dry-run that differs from live into an update with field diffs and owners', () => {
    const liveA = withManaged(configMap('n', 'a', { x: 'old' }), { 'f:data': { 'f:x': {} } });
    const live = new Map([
      [idOf(a), liveA],
      [idOf(b), withManaged(b, { 'f:data': { 'f:y': {} } })],
    ]);
    expect(needsDryRun(synth.manifests, live)).toEqual([idOf(a)]);
    const dryRun = new Map([
      [idOf(a), { ...liveA, data: { x: '1' }, metadata: { ...liveA.metadata, resourceVersion: '8' } }],
    ]);
    const p = plan(synth.manifests, observation({ live, dryRun }), { platform: 'p', overlay: 'dev' });
    const item = p.items.find((i) => i.ref.name === 'a')!;
    expect(item.action).toBe('update');
    expect(item.diff).toEqual([
      { path: '/data/x', op: 'replace', before: 'old', after: '1', owners: ['groundwork'] },
    ]);
    expect(item.problem).toBeUndefined();
  });

  it('treats a dry-run equal to live (server normalization) as unchanged', () => {
    const liveA = withManaged(configMap('n', 'a', { x: 'normalized' }), {});
    const live = new Map([[idOf(a), liveA]]);
    const p = plan([synth.manifests[0]!], observation({ live, dryRun: new Map([[idOf(a), liveA]]) }), {
      platform: 'p',
      overlay: 'dev',
    });
    expect(p.items[0]!.action).toBe('unchanged');
  });

  it('reports a conflict when another manager owns a changed field, unless forcing', () => {
    const liveA = withManaged(configMap('n', 'a', { x: 'theirs' }), { 'f:data': { 'f:x': {} } }, 'helm');
    const live = new Map([[idOf(a), liveA]]);
    const dryRun = new Map([[idOf(a), { ...liveA, data: { x: '1' } }]]);
    const p = plan([synth.manifests[0]!], observation({ live, dryRun }), { platform: 'p', overlay: 'dev' });
    expect(p.items[0]!.problem).toMatchObject({
      code: 'Conflict',
      conflicts: [{ manager: 'helm', field: '/data/x' }],
    });
    const forced = plan([synth.manifests[0]!], observation({ live, dryRun }), {
      platform: 'p',
      overlay: 'dev',
      force: true,
    });
    expect(forced.items[0]!.problem).toBeUndefined();
  });

  it('redacts Secret values in diffs while still showing that they changed', () => {
    const secret: K8sObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'n' },
      data: { token: 'bmV3' },
    };
    const s = synthOf([secret], { overlay: 'dev' });
    const liveS = withManaged({ ...secret, data: { token: 'b2xk' } }, { 'f:data': { 'f:token': {} } });
    const p = plan(
      s.manifests,
      observation({
        live: new Map([[idOf(secret), liveS]]),
        dryRun: new Map([[idOf(secret), { ...liveS, data: { token: 'bmV3' } }]]),
      }),
      { platform: 'p', overlay: 'dev' },
    );
    const text = JSON.stringify(p.toJSON()) + p.toString() + p.toMarkdown();
    expect(text).not.toContain('bmV3');
    expect(text).not.toContain('b2xk');
    expect(p.items[0]!.diff[0]).toMatchObject({ path: '/data/token', op: 'replace' });
    expect(String(p.items[0]!.diff[0]!.after)).toMatch(/^<redacted hmac:[0-9a-f]{8}>$/);
  });

  it('lists inventory objects no longer desired as prunes, and kept ones as skips', () => {
    const gone = withManaged(configMap('n', 'gone', {}), {});
    const kept = withManaged(configMap('n', 'kept', {}, { 'groundwork.io/prune': 'keep' }), {});
    const inventory = new Set([idOf(a), idOf(gone), idOf(kept), 'n_vanished__ConfigMap']);
    const live = new Map([
      [idOf(a), withManaged(a, { 'f:data': { 'f:x': {} } })],
      [idOf(gone), gone],
      [idOf(kept), kept],
    ]);
    const p = plan([synth.manifests[0]!], observation({ live, inventory }), {
      platform: 'p',
      overlay: 'dev',
    });
    expect(p.items.map((i) => [i.ref.name, i.action, i.reason])).toEqual([
      ['a', 'unchanged', undefined],
      ['gone', 'prune', undefined],
      ['kept', 'skip', 'KeepAnnotation'],
    ]);
  });

  it('skips objects whose list failed and refuses to prune', () => {
    const gone = withManaged(configMap('n', 'gone', {}), {});
    const p = plan(
      synth.manifests,
      observation({
        live: new Map([[idOf(gone), gone]]),
        inventory: new Set([idOf(gone), idOf(a), idOf(b)]),
        failedLists: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', message: 'Forbidden' }],
      }),
      { platform: 'p', overlay: 'dev' },
    );
    expect(
      p.items
        .filter((i) => i.ref.name !== 'gone')
        .every((i) => i.action === 'skip' && i.reason === 'ListFailed'),
    ).toBe(true);
    expect(p.pruneRefusal()?.reason).toBe('ObservationIncomplete');
  });

  it('prune guards: nothing desired, and the share threshold', () => {
    const objs = Array.from({ length: 10 }, (_, i) => withManaged(configMap('n', `c${i}`, {}), {}));
    const live = new Map(objs.map((o) => [idOf(o), o]));
    const inventory = new Set(objs.map(idOf));
    expect(
      plan([], observation({ live, inventory }), { platform: 'p', overlay: 'dev' }).pruneRefusal()?.reason,
    ).toBe('NoDesiredObjects');
    const keepSeven = synthOf(objs.slice(0, 7), { overlay: 'dev' }).manifests;
    expect(
      plan(keepSeven, observation({ live, inventory }), { platform: 'p', overlay: 'dev' }).pruneRefusal(),
    ).toBeUndefined(); // exactly 30%
    const keepSix = synthOf(objs.slice(0, 6), { overlay: 'dev' }).manifests;
    const p6 = plan(keepSix, observation({ live, inventory }), { platform: 'p', overlay: 'dev' });
    expect(p6.pruneRefusal()?.reason).toBe('TooManyPrunes');
    expect(p6.pruneRefusal({ allowMassPrune: true })).toBeUndefined();
    expect(p6.pruneRefusal({ maxPruneShare: 0.5 })).toBeUndefined();
  });

  it('skips a ClusterVersion that does not exist (the installer creates it)', () => {
    const cv: K8sObject = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      spec: { channel: 'stable-4.16' },
    };
    const p = plan(synthOf([cv], { overlay: 'dev' }).manifests, observation({}), {
      platform: 'p',
      overlay: 'dev',
    });
    expect(p.items[0]).toMatchObject({ action: 'skip', reason: 'NotCreatedByGroundwork' });
  });
});

describe('stageOf', () => {
  it.each([
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', {}, 'crds'],
    ['v1', 'Namespace', {}, 'namespaces'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', {}, 'namespaces'],
    ['v1', 'ConfigMap', {}, 'resources'],
    ['operators.coreos.com/v1alpha1', 'CatalogSource', {}, 'catalog-sources'],
    ['operators.coreos.com/v1', 'OperatorGroup', {}, 'operator-groups'],
    ['operators.coreos.com/v1alpha1', 'Subscription', {}, 'subscriptions'],
    ['argoproj.io/v1beta1', 'ArgoCD', { 'groundwork.io/operator': 'gitops/gitops' }, 'operands'],
    ['machineconfiguration.openshift.io/v1', 'MachineConfig', {}, 'machine-configs'],
    ['config.openshift.io/v1', 'ClusterVersion', {}, 'cluster-version'],
    ['v1', 'ConfigMap', { 'groundwork.io/stage': 'operands' }, 'operands'],
  ])('%s %s goes to %s', (apiVersion, kind, annotations, stage) => {
    expect(stageOf({ apiVersion, kind, metadata: { name: 'x', annotations } })).toBe(stage);
  });
});
