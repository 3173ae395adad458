import { describe, expect, it } from 'vitest';
import { readClusterVersion } from '../../src/cluster-version/cluster-state.js';
import type { UpdatePath } from '../../src/cluster-version/path.js';
import type { UpdateAction } from '../../src/cluster-version/stepper.js';
import { clusterUpdateStatus } from '../../src/cluster-version/update-status.js';

// The published view of a cluster update, from a ClusterVersion, a planned path and the stepper's
// action: which steps are done, running or waiting, and why.

const image = (v: string) => `quay.io/openshift-release-dev/ocp-release:${v}-x86_64`;

function cv(
  history: { version: string; state: 'Completed' | 'Partial' }[],
  extra: { desiredUpdate?: string; conditional?: { version: string; risks: string[] }[] } = {},
) {
  return readClusterVersion({
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: {
      channel: 'stable-4.16',
      ...(extra.desiredUpdate ? { desiredUpdate: { version: extra.desiredUpdate } } : {}),
    },
    status: {
      history: history.map((h, i) => ({
        ...h,
        image: image(h.version),
        ...(h.state === 'Completed' ? { completionTime: `2026-01-0${9 - i}T00:00:00Z` } : {}),
      })),
      conditionalUpdates: (extra.conditional ?? []).map((c) => ({
        release: { version: c.version, image: image(c.version) },
        risks: c.risks.map((name) => ({ name, url: 'https://example.com', message: 'm' })),
      })),
    },
  });
}

const path = (from: string, ...to: string[]): UpdatePath => ({
  ok: true,
  from,
  to: to.at(-1)!,
  steps: to.map((v, i) => ({ from: i === 0 ? from : to[i - 1]!, to: v, kind: 'minor' as const })),
});

const inProgress: UpdateAction = {
  action: 'wait',
  reason: 'UpdateInProgress',
  message: 'Working towards 4.15.3: 10 of 800 done',
};

describe('clusterUpdateStatus', () => {
  it('marks history steps done, the in-flight step running with the CVO message, the rest waiting for it', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([
        { version: '4.15.3', state: 'Partial' },
        { version: '4.14.10', state: 'Completed' },
        { version: '4.14.1', state: 'Completed' },
      ]),
      target: '4.16.2',
      acceptedRisks: [],
      path: path('4.14.10', '4.15.3', '4.16.2'),
      action: inProgress,
    });
    expect(s.current).toBe('4.14.10');
    expect(s.next).toBe('4.15.3');
    expect(s.steps).toEqual([
      { from: '4.14.1', to: '4.14.10', state: 'done', reason: 'completed 2026-01-08T00:00:00Z' },
      {
        from: '4.14.10',
        to: '4.15.3',
        state: 'running',
        reason: 'waiting (UpdateInProgress): Working towards 4.15.3: 10 of 800 done',
      },
      { from: '4.15.3', to: '4.16.2', state: 'waiting', reason: 'after the step 4.14.10 -> 4.15.3' },
    ]);
    expect(s).toMatchObject({ action: 'wait', reason: 'UpdateInProgress' });
  });

  it('says why the first step waits when nothing is in flight (a step the cluster does not offer)', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([{ version: '4.14.10', state: 'Completed' }]),
      target: '4.15.3',
      acceptedRisks: [],
      path: path('4.14.10', '4.15.3'),
      action: {
        action: 'wait',
        reason: 'StepNotOffered',
        message: 'step 1/1 4.14.10 -> 4.15.3 is not offered',
      },
    });
    expect(s.steps).toEqual([
      {
        from: '4.14.10',
        to: '4.15.3',
        state: 'waiting',
        reason: 'waiting (StepNotOffered): step 1/1 4.14.10 -> 4.15.3 is not offered',
      },
    ]);
  });

  it('marks a just-requested step running', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([{ version: '4.14.10', state: 'Completed' }]),
      target: '4.15.3',
      acceptedRisks: [],
      path: path('4.14.10', '4.15.3'),
      action: {
        action: 'set-desired-update',
        desiredUpdate: { version: '4.15.3' },
        message: 'step 1/1 4.14.10 -> 4.15.3',
      },
    });
    expect(s.steps[0]).toMatchObject({
      state: 'running',
      reason: expect.stringContaining('spec.desiredUpdate 4.15.3'),
    });
  });

  it('lists the risks on the steps to take, accepted or blocking, and the blocked action', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([{ version: '4.14.10', state: 'Completed' }], {
        conditional: [
          { version: '4.15.3', risks: ['AzureDefaultVMType', 'OVNNetworkPolicy'] },
          { version: '4.14.99', risks: ['Elsewhere'] },
        ],
      }),
      target: '4.15.3',
      acceptedRisks: ['AzureDefaultVMType'],
      path: path('4.14.10', '4.15.3'),
      action: { action: 'blocked', reason: 'RiskNotAccepted', message: 'accept OVNNetworkPolicy' },
    });
    expect(s.risks).toEqual([
      { name: 'AzureDefaultVMType', version: '4.15.3', accepted: true },
      { name: 'OVNNetworkPolicy', version: '4.15.3', accepted: false },
    ]);
    expect(s.steps.at(-1)).toMatchObject({
      state: 'waiting',
      reason: 'blocked (RiskNotAccepted): accept OVNNetworkPolicy',
    });
  });

  it('has no open step and no next once the target is reached', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([
        { version: '4.15.3', state: 'Completed' },
        { version: '4.14.10', state: 'Completed' },
      ]),
      target: '4.15.3',
      acceptedRisks: [],
      path: { ok: true, from: '4.15.3', to: '4.15.3', steps: [] },
      action: { action: 'done', message: 'the cluster runs 4.15.3 and is Available' },
    });
    expect(s.steps.map((x) => x.state)).toEqual(['done']);
    expect(s.next).toBeUndefined();
  });

  it('ends a live-only path (a hop short of the target) with a step planned once it is offered', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([{ version: '4.14.10', state: 'Completed' }]),
      target: '4.16.2',
      acceptedRisks: [],
      path: path('4.14.10', '4.15.3'),
      action: { action: 'set-desired-update', desiredUpdate: { version: '4.15.3' }, message: 'step 1/1' },
    });
    expect(s.steps.at(-1)).toEqual({
      from: '4.15.3',
      to: '4.16.2',
      state: 'waiting',
      reason: 'planned once the update service offers a step from 4.15.3',
    });
  });

  it('makes a refused path one waiting step to the target with the refusal', () => {
    const s = clusterUpdateStatus({
      name: 'version',
      cv: cv([{ version: '4.14.10', state: 'Completed' }]),
      target: '4.16.2',
      acceptedRisks: [],
      path: { ok: false, from: '4.14.10', to: '4.16.2', reason: 'NoPath', message: 'no edge', risks: ['R1'] },
      action: { action: 'blocked', reason: 'NoPath', message: 'no update path: no edge' },
    });
    expect(s.steps).toEqual([
      {
        from: '4.14.10',
        to: '4.16.2',
        state: 'waiting',
        reason: 'blocked (NoPath): no update path: no edge',
      },
    ]);
    expect(s.risks).toEqual([{ name: 'R1', version: '4.16.2', accepted: false }]);
  });
});
