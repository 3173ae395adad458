import { describe, expect, it } from 'vitest';
import {
  currentVersion,
  previousVersion,
  readClusterOperators,
  readClusterVersion,
  upgradeableOf,
} from '../../src/cluster-version/cluster-state.js';
import { InvalidClusterStateError } from '../../src/cluster-version/errors.js';
import { clusterState, fixtureYaml } from './fixtures.js';

const load = (scenario: Parameters<typeof clusterState>[0]) => {
  const { clusterVersion, clusterOperators } = clusterState(scenario);
  return { cv: readClusterVersion(clusterVersion), cos: readClusterOperators(clusterOperators) };
};

describe('current and previous version from history (CVO GetCurrentVersion, Rollback precondition)', () => {
  it.each([
    // history: [Completed 4.14.1]
    ['not-upgrading', '4.14.1', undefined],
    // history: [Partial 4.14.1, Completed 4.14.0]
    ['4.14.1-paused-worker-pool', '4.14.0', '4.14.0'],
    // history: [Partial 4.14.1, Completed 4.14.0-rc.3]
    ['4.14.1-degraded', '4.14.0-rc.3', '4.14.0-rc.3'],
  ] as const)('%s runs %s, previous %s', (scenario, current, previous) => {
    const { cv } = load(scenario);
    expect(currentVersion(cv)?.version).toBe(current);
    expect(previousVersion(cv)?.version).toBe(previous);
  });

  it('falls back to the oldest entry while the install is still Partial', () => {
    const raw = structuredClone(clusterState('not-upgrading').clusterVersion);
    raw.status.history[0].state = 'Partial';
    expect(currentVersion(readClusterVersion(raw))?.version).toBe('4.14.1');
  });

  it('reads the paused-worker-pool ClusterVersion from its List wrapper', () => {
    const list = fixtureYaml('cluster-state/4.14.1-paused-worker-pool/cv.yaml');
    expect(list.kind).toBe('List');
    expect(readClusterVersion(list).status?.availableUpdates).toHaveLength(10);
  });
});

describe('upgradeableOf', () => {
  it('names the ClusterOperators behind Upgradeable=False in the degraded cluster', () => {
    const { cv, cos } = load('4.14.1-degraded');
    expect(upgradeableOf(cv, cos)).toEqual({
      status: 'False',
      reason: 'ClusterOperatorsNotUpgradeable',
      message: [
        'Multiple cluster operators should not be upgraded between minor versions:',
        '* Cluster operator control-plane-machine-set should not be upgraded between minor versions: AsExpected: cluster operator is not upgradable',
        '* Cluster operator machine-config should not be upgraded between minor versions: PoolUpdating: One or more machine config pools are updating, please see `oc get mcp` for further details',
      ].join('\n'),
      blockers: [
        {
          clusterOperator: 'control-plane-machine-set',
          reason: 'AsExpected',
          message: 'cluster operator is not upgradable',
        },
        {
          clusterOperator: 'machine-config',
          reason: 'PoolUpdating',
          message:
            'One or more machine config pools are updating, please see `oc get mcp` for further details',
        },
      ],
    });
  });

  it('is True when neither the ClusterVersion nor any ClusterOperator says False', () => {
    const { cv, cos } = load('not-upgrading');
    expect(upgradeableOf(cv, cos)).toEqual({ status: 'True', blockers: [] });
  });

  it('trusts a ClusterOperator that already says False before the CVO aggregates it', () => {
    const { cv } = load('not-upgrading');
    const { cos } = load('4.14.1-degraded');
    expect(upgradeableOf(cv, cos).blockers.map((b) => b.clusterOperator)).toEqual([
      'control-plane-machine-set',
      'machine-config',
    ]);
  });
});

describe('validation at the edge', () => {
  it('lists every problem with its path', () => {
    const raw = structuredClone(clusterState('not-upgrading').clusterVersion);
    raw.status.history[0].state = 'Done';
    delete raw.status.desired.version;
    let error: unknown;
    try {
      readClusterVersion(raw);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidClusterStateError);
    expect((error as InvalidClusterStateError).problems).toEqual([
      'status.desired.version: Invalid input: expected string, received undefined',
      'status.history[0].state: Invalid option: expected one of "Completed"|"Partial"',
    ]);
  });

  it('refuses a List that does not hold exactly one ClusterVersion', () => {
    expect(() => readClusterVersion({ kind: 'List', items: [] })).toThrowError(
      'ClusterVersion: 1 problem(s): items: want exactly one ClusterVersion, got 0',
    );
  });

  it('reads the 33 ClusterOperators of each scenario', () => {
    expect(load('not-upgrading').cos).toHaveLength(33);
  });
});
