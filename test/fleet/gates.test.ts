import { describe, expect, it } from 'vitest';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';
import {
  checkSource,
  fleetRows,
  fleetText,
  platformObservations,
  type ClusterObservation,
} from '../../src/fleet/gates.js';
import type { SyncStatusJson } from '../../src/report/sync-status.js';

const [dev, staging] = toEnvironments(
  environmentsSchema.parse([
    { name: 'dev', overlays: ['dev'], ref: 'main' },
    {
      name: 'staging',
      overlays: ['staging', 'staging-2'],
      ref: 'env/staging',
      promotedFrom: 'dev',
      soak: '30m',
    },
  ]),
);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const NOW = new Date('2026-11-25T12:00:00Z');

function status(
  over: Partial<SyncStatusJson> & { readySince?: string; ready?: 'True' | 'False' } = {},
): SyncStatusJson {
  const { readySince = '2026-11-25T10:00:00Z', ready = 'True', ...rest } = over;
  return {
    conditions: [
      {
        type: 'Ready',
        status: ready,
        reason: ready === 'True' ? 'ReconciliationSucceeded' : 'HealthCheckFailed',
        message:
          ready === 'True'
            ? `Applied revision: main@sha1:${A}`
            : 'Deployment/web/api Degraded: ProgressDeadlineExceeded',
        lastTransitionTime: readySince,
        observedGeneration: 1,
      },
    ],
    lastAppliedRevision: `main@sha1:${A}`,
    health: { status: 'Healthy', reason: 'AllHealthy', message: 'all 3 healthy' },
    ...rest,
  };
}

function cluster(name: string, overlay: string, s: SyncStatusJson | undefined): ClusterObservation {
  return {
    cluster: name,
    context: name,
    syncs: [
      {
        name: `p-${overlay}`,
        namespace: 'groundwork-system',
        overlay,
        repository: { url: 'http://git/p.git' },
        status: s,
      },
    ],
  };
}

const gates = (observations: ClusterObservation[], source = staging!) =>
  checkSource({ source, platform: 'p', observations, now: NOW });

describe('promotion gates on the source environment', () => {
  it('pass when every overlay runs one commit, Ready and Healthy for the soak time, without drift or waits', () => {
    const v = gates([cluster('s1', 'staging', status()), cluster('s2', 'staging-2', status())]);
    expect(v.failures).toEqual([]);
    expect(v.commit).toBe(A);
    expect(v.clusters).toEqual(['s1 (staging)', 's2 (staging-2)']);
  });

  it('fail on a Degraded cluster, naming the cluster and the object', () => {
    const degraded = status({
      ready: 'False',
      health: {
        status: 'Degraded',
        reason: 'ObjectsDegraded',
        message: 'Deployment/web/api: ProgressDeadlineExceeded',
      },
    });
    const v = gates([cluster('s1', 'staging', degraded), cluster('s2', 'staging-2', status())]);
    expect(v.failures.map((f) => [f.gate, f.cluster])).toEqual([
      ['Ready', 's1 (staging)'],
      ['Healthy', 's1 (staging)'],
    ]);
    expect(v.failures[1]!.message).toContain('Deployment/web/api');
  });

  it('fail inside the soak time and say when the revision becomes promotable', () => {
    const v = gates([
      cluster('s1', 'staging', status({ readySince: '2026-11-25T11:50:00Z' })),
      cluster('s2', 'staging-2', status()),
    ]);
    expect(v.failures).toEqual([
      {
        gate: 'Soaked',
        cluster: 's1 (staging)',
        message: 'Ready for 10m of the 30m soak time of staging; promotable in 20m',
      },
    ]);
  });

  it('fail when the clusters run different commits, on drift and on pending waits', () => {
    const v = gates([
      cluster(
        's1',
        'staging',
        status({
          lastAppliedRevision: `main@sha1:${B}`,
          drift: {
            drifted: 1,
            missing: 0,
            modified: 1,
            extra: 0,
            items: [{ object: 'ConfigMap/x/y', type: 'modified', fields: ['.data.a'] }],
          },
        }),
      ),
      cluster(
        's2',
        'staging-2',
        status({ pending: [{ stage: 'machine-configs', message: 'pool infra waits for its window' }] }),
      ),
    ]);
    expect(v.commit).toBeUndefined();
    expect(v.failures.map((f) => f.gate)).toEqual(['NoDrift', 'NoPendingWaits', 'SameRevision']);
    expect(v.failures[0]!.message).toContain('ConfigMap/x/y (modified)');
  });

  it('fail when an overlay has no reachable cluster, and name the unreachable ones', () => {
    const v = gates([
      cluster('s1', 'staging', status()),
      { cluster: 's2', context: 's2', error: 'connect ECONNREFUSED 127.0.0.1:1', syncs: [] },
    ]);
    expect(v.failures).toHaveLength(1);
    expect(v.failures[0]).toMatchObject({ gate: 'Reachable' });
    expect(v.failures[0]!.message).toContain('overlay staging-2');
    expect(v.failures[0]!.message).toContain('s2 (connect ECONNREFUSED 127.0.0.1:1)');
  });

  it('pass with no soak configured as soon as the cluster is Ready', () => {
    const v = gates([cluster('d1', 'dev', status({ readySince: NOW.toISOString() }))], dev);
    expect(v.failures).toEqual([]);
  });
});

describe('a PlatformSync whose status cannot be read (another agent version)', () => {
  const unreadable: ClusterObservation = {
    cluster: 's1',
    context: 's1',
    syncs: [
      {
        name: 'p-staging',
        namespace: 'groundwork-system',
        overlay: 'staging',
        repository: { url: 'http://git/p.git' },
        status: undefined,
        statusProblem: 'InvalidSyncStatus: health.status: Invalid option',
      },
    ],
  };

  it('fails Ready for that sync, saying why, and keeps the rest of the cluster', () => {
    const v = gates([unreadable, cluster('s2', 'staging-2', status())]);
    expect(v.failures).toContainEqual({
      gate: 'Ready',
      cluster: 's1 (staging)',
      message: 'its status cannot be read: InvalidSyncStatus: health.status: Invalid option',
    });
    expect(v.failures.some((f) => f.gate === 'Reachable')).toBe(false);
  });

  it('is a row of its own in fleet status, with the problem', () => {
    const [row] = fleetRows({ platform: 'p', environments: [dev!, staging!], observations: [unreadable] });
    expect(row).toMatchObject({
      cluster: 's1',
      environment: 'staging',
      ready: 'Unknown',
      error: 'status cannot be read: InvalidSyncStatus: health.status: Invalid option',
    });
  });
});

describe('fleet status rows', () => {
  it('show every cluster, unreachable ones included, with environment, commits behind and drift', () => {
    const rows = fleetRows({
      platform: 'p',
      environments: [dev!, staging!],
      observations: [
        cluster('d1', 'dev', status({ lastReconcileTime: '2026-11-25T11:00:00Z' })),
        { cluster: 'p1', context: 'prod', error: 'the server is unreachable', syncs: [] },
      ],
      behind: new Map([[`main@${A}`, 2]]),
    });
    expect(rows).toEqual([
      {
        cluster: 'd1',
        context: 'd1',
        environment: 'dev',
        overlay: 'dev',
        revision: `main@sha1:${A}`,
        behind: 2,
        ready: 'True',
        reason: 'ReconciliationSucceeded',
        health: 'Healthy',
        drift: 0,
        lastApplied: '2026-11-25T11:00:00Z',
      },
      { cluster: 'p1', context: 'prod', ready: 'Unreachable', drift: 0, error: 'the server is unreachable' },
    ]);
    const text = fleetText(rows);
    expect(text).toMatch(/^CLUSTER\s+ENVIRONMENT\s+OVERLAY\s+REVISION\s+BEHIND\s+READY/);
    expect(text).toContain('p1: the server is unreachable');
    expect(text).toContain(`main@${'a'.repeat(12)}`);
  });
});

describe('platformObservations', () => {
  it("keeps a cluster's syncs of the platform only, and every cluster, unreachable ones too", () => {
    const sync = (name: string) => ({
      name,
      namespace: 'groundwork-system',
      overlay: 'dev',
      repository: { url: `http://git.invalid/${name}.git` },
      status: undefined,
    });
    const observations = [
      { cluster: 'a', context: 'a', syncs: [sync('p-dev'), sync('p2-dev'), sync('other-dev')] },
      { cluster: 'b', context: 'b', error: 'refused', syncs: [] },
    ];
    expect(platformObservations(observations, 'p')).toEqual([
      { cluster: 'a', context: 'a', syncs: [sync('p-dev')] },
      { cluster: 'b', context: 'b', error: 'refused', syncs: [] },
    ]);
    expect(platformObservations(observations, 'p2')[0]!.syncs.map((s) => s.name)).toEqual(['p2-dev']);
  });
});
