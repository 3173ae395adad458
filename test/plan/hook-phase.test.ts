import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { idOf } from '../../src/core/object-id.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import { hookRuns, helmHookPhases } from '../../src/plan/hook-phase.js';
import { plan, type Observation } from '../../src/plan/plan.js';

const CHART = 'platform/kyverno';

function hook(name: string, phases: string): K8sObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'n',
      annotations: {
        'helm.sh/hook': phases,
        'groundwork.io/hook-weight': '0',
        'groundwork.io/stage': 'operands',
      },
    },
  };
}

const app = (value: string): K8sObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'app', namespace: 'n' },
  data: { v: value },
});

const managed = (obj: K8sObject): K8sObject => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    uid: 'u',
    resourceVersion: '1',
    managedFields: [
      {
        manager: 'groundwork',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:v': {} } },
      },
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

const actions = (objects: K8sObject[], observed: Observation) =>
  plan(
    objects.map((o) => toManifest(o, CHART)),
    observed,
    { platform: 'p', overlay: 'dev' },
  ).items.map((i) => `${i.ref.name}:${i.action}${i.reason ? `:${i.reason}` : ''}`);

describe('hookRuns', () => {
  it('runs install hooks on the first install and upgrade hooks on a change of an installed chart', () => {
    const first = { installed: false, changed: true };
    const upgrade = { installed: true, changed: true };
    const idle = { installed: true, changed: false };
    expect(hookRuns(['pre-upgrade'], first)).toBe(false);
    expect(hookRuns(['post-upgrade'], first)).toBe(false);
    expect(hookRuns(['pre-install'], first)).toBe(true);
    expect(hookRuns(['pre-install', 'pre-upgrade'], first)).toBe(true);
    expect(hookRuns(['pre-upgrade'], upgrade)).toBe(true);
    expect(hookRuns(['post-upgrade'], upgrade)).toBe(true);
    expect(hookRuns(['pre-install'], upgrade)).toBe(false);
    expect(hookRuns(['post-install'], upgrade)).toBe(false);
    expect(hookRuns(['pre-upgrade', 'post-install'], idle)).toBe(false);
  });

  it('reads helm.sh/hook as helm splits it', () => {
    expect(helmHookPhases({ 'helm.sh/hook': ' pre-install , pre-upgrade' })).toEqual([
      'pre-install',
      'pre-upgrade',
    ]);
    expect(helmHookPhases({})).toBeUndefined();
  });
});

describe('plan: chart hooks in helm phases', () => {
  const objects = [
    app('1'),
    hook('upgrade-only', 'pre-upgrade'),
    hook('install-only', 'pre-install'),
    hook('both', 'pre-install,post-upgrade'),
  ];

  it('skips an upgrade-only hook on the first install of the chart', () => {
    expect(actions(objects, observation({}))).toEqual([
      'app:create',
      'upgrade-only:skip:HookPhase',
      'install-only:create',
      'both:create',
    ]);
  });

  it('runs an upgrade-only hook once the installed chart changes, and no install-only hook', () => {
    const live = new Map([[idOf(app('1')), managed(app('1'))]]);
    const dryRun = new Map([[idOf(app('1')), managed(app('2'))]]);
    const changed = [app('2'), ...objects.slice(1)];
    expect(actions(changed, observation({ live, dryRun }))).toEqual([
      'app:update',
      'upgrade-only:create',
      'install-only:skip:HookPhase',
      'both:create',
    ]);
  });

  it('runs no hook of an installed chart when nothing else of it changes', () => {
    const live = new Map([[idOf(app('1')), managed(app('1'))]]);
    expect(actions(objects, observation({ live }))).toEqual([
      'app:unchanged',
      'upgrade-only:skip:HookPhase',
      'install-only:skip:HookPhase',
      'both:skip:HookPhase',
    ]);
  });

  it('counts a live hook whose content changed as a change of the chart: upgrade hooks run', () => {
    const live = new Map<string, K8sObject>([
      [idOf(app('1')), managed(app('1'))],
      [
        idOf(hook('install-only', 'pre-install')),
        managed({ ...hook('install-only', 'pre-install'), data: { v: 'old' } }),
      ],
    ]);
    const dryRun = new Map([
      [idOf(hook('install-only', 'pre-install')), managed(hook('install-only', 'pre-install'))],
    ]);
    expect(actions(objects, observation({ live, dryRun }))).toEqual([
      'app:unchanged',
      'upgrade-only:create',
      'install-only:skip:HookPhase',
      'both:create',
    ]);
  });

  it('counts a chart installed when its objects are only in the inventory (deleted out of band)', () => {
    const inventory = new Set([idOf(app('1'))]);
    expect(actions(objects, observation({ inventory }))).toEqual([
      'app:create',
      'upgrade-only:create',
      'install-only:skip:HookPhase',
      'both:create',
    ]);
  });

  it('leaves hooks without helm.sh/hook (a groundwork.io/hook-weight of the platform) alone', () => {
    const own: K8sObject = {
      ...app('x'),
      metadata: { name: 'own', namespace: 'n', annotations: { 'groundwork.io/hook-weight': '1' } },
    };
    const live = new Map([[idOf(app('1')), managed(app('1'))]]);
    expect(actions([app('1'), own], observation({ live }))).toEqual(['app:unchanged', 'own:create']);
  });
});
