import { describe, expect, it } from 'vitest';
import type { ClusterUpdateStatus } from '../../src/cluster-version/update-status.js';
import {
  DECISION_ITEMS,
  DECISION_TEXT_LIMIT,
  clusterUpdateJson,
  operatorPinsJson,
} from '../../src/report/openshift-status.js';
import { SyncStatus, nextStatus } from '../../src/report/sync-status.js';

// The OpenShift decisions as written into the PlatformSync status: bounded, redacted, parsed back.

const update = (over: Partial<ClusterUpdateStatus> = {}): ClusterUpdateStatus => ({
  clusterVersion: 'version',
  current: '4.14.10',
  target: '4.16.2',
  steps: [
    { from: '4.14.1', to: '4.14.10', state: 'done' },
    { from: '4.14.10', to: '4.15.3', state: 'running', reason: 'Working towards 4.15.3' },
    { from: '4.15.3', to: '4.16.2', state: 'waiting', reason: 'after the step 4.14.10 -> 4.15.3' },
  ],
  next: '4.15.3',
  action: 'wait',
  reason: 'UpdateInProgress',
  message: 'Working towards 4.15.3',
  risks: [{ name: 'R', version: '4.16.2', accepted: false }],
  ...over,
});

type ReconciledEvent = Extract<Parameters<typeof nextStatus>[1], { type: 'reconciled' }>;

const reconciled = (openshift?: ReconciledEvent['openshift']): ReconciledEvent => ({
  type: 'reconciled',
  at: new Date('2026-01-01T00:00:00Z'),
  generation: 1,
  revision: 'main@sha1:1',
  applied: true,
  inventory: { objects: 1 },
  health: { status: 'Healthy', reason: 'AllHealthy' },
  ...(openshift ? { openshift } : {}),
});

describe('OpenShift decisions in the status', () => {
  it('cuts long strings, redacts credentials, and keeps the open steps before old done ones', () => {
    const done = Array.from({ length: 30 }, (_, i) => ({
      from: `4.14.${i}`,
      to: `4.14.${i + 1}`,
      state: 'done' as const,
    }));
    const json = clusterUpdateJson(
      update({
        message: `password: hunter2 ${'x'.repeat(5000)}`,
        steps: [...done, { from: '4.14.30', to: '4.15.3', state: 'running' }],
      }),
    );
    expect(json.message.length).toBe(DECISION_TEXT_LIMIT);
    expect(json.message).not.toContain('hunter2');
    expect(json.steps).toHaveLength(DECISION_ITEMS.steps);
    expect(json.steps.at(-1)).toEqual({ from: '4.14.30', to: '4.15.3', state: 'running' });
    expect(json.steps[0]).toMatchObject({ from: '4.14.11' });
  });

  it('caps the pins and their InstallPlans', () => {
    const plans = Array.from({ length: 15 }, (_, i) => ({
      name: `p${i}`,
      decision: 'wait' as const,
      reason: 'BeyondPin' as const,
      message: 'm',
    }));
    const pins = Array.from({ length: 60 }, (_, i) => ({
      subscription: `ops/s${i}`,
      package: 'p',
      pin: 'p.v1',
      installPlans: plans,
    }));
    const json = operatorPinsJson(pins);
    expect(json).toHaveLength(DECISION_ITEMS.pins);
    expect(json[0]!.installPlans).toHaveLength(DECISION_ITEMS.installPlans);
  });

  it('writes them with a reconcile, reads them back with the schema, and clears them when a later apply has none', () => {
    const pins = [
      {
        subscription: 'ops/foo',
        package: 'foo',
        pin: 'foo.v0.2.0',
        installed: 'foo.v0.1.0',
        installPlans: [],
      },
    ];
    const s1 = nextStatus(undefined, reconciled({ clusterUpdate: update(), operatorPins: pins }));
    const back = SyncStatus.parse(JSON.parse(JSON.stringify(s1.value)));
    expect(back.value.clusterUpdate?.steps.map((s) => s.state)).toEqual(['done', 'running', 'waiting']);
    expect(back.value.operatorPins?.[0]).toMatchObject({ subscription: 'ops/foo', pin: 'foo.v0.2.0' });
    const s2 = nextStatus(s1, reconciled({}));
    expect(s2.value.clusterUpdate).toBeUndefined();
    expect(s2.value.operatorPins).toBeUndefined();
  });

  it('refuses a status whose published step has an unknown state', () => {
    const bad = { ...nextStatus(undefined, reconciled({ clusterUpdate: update() })).value };
    bad.clusterUpdate = {
      ...bad.clusterUpdate!,
      steps: [{ from: 'a', to: 'b', state: 'exploded' as 'done' }],
    };
    expect(() => SyncStatus.parse(bad)).toThrow(/clusterUpdate\.steps\.0\.state/);
  });

  it('prints the path and the pins in the status lines (groundwork sync status)', () => {
    const pins = [
      {
        subscription: 'ops/foo',
        package: 'foo',
        pin: 'foo.v0.2.0',
        installed: 'foo.v0.1.0',
        installPlans: [
          {
            name: 'install-c',
            decision: 'wait' as const,
            reason: 'BeyondPin' as const,
            message: 'past\nthe pin',
          },
        ],
      },
    ];
    const text = nextStatus(
      undefined,
      reconciled({ clusterUpdate: update(), operatorPins: pins }),
    ).toString();
    expect(text).toContain(
      'update: 4.14.10 -> 4.16.2, next 4.15.3: wait (UpdateInProgress): Working towards 4.15.3',
    );
    expect(text).toContain('  running 4.14.10 -> 4.15.3: Working towards 4.15.3');
    expect(text).toContain('  waiting 4.15.3 -> 4.16.2: after the step 4.14.10 -> 4.15.3');
    expect(text).toContain('  risk R (4.16.2): not accepted');
    expect(text).toContain('pin ops/foo: foo.v0.2.0, installed foo.v0.1.0');
    expect(text).toContain('  install-c: wait (BeyondPin): past the pin');
  });
});
