import { describe, expect, it } from 'vitest';
import type { StageContext } from '../../src/apply/stage-hook.js';
import type { ApplyTarget } from '../../src/apply/target.js';
import { readClusterVersion } from '../../src/cluster-version/cluster-state.js';
import { graphFromClusterVersion, mergeGraphs, nodeOf } from '../../src/cluster-version/graph.js';
import { planUpdatePath } from '../../src/cluster-version/path.js';
import { loadReleaseSnapshot } from '../../src/cluster-version/release-snapshot.js';
import { nextUpdateAction } from '../../src/cluster-version/stepper.js';
import { clusterVersionHook } from '../../src/cluster-version/version-hook.js';
import { ANNOTATIONS } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import type { PlanItem } from '../../src/plan/types.js';
import { cincinnati, clusterState, type FixtureObject } from './fixtures.js';

const snapshot = await loadReleaseSnapshot();
const graphs = [mergeGraphs([cincinnati('stable-4.8.json'), cincinnati('stable-4.9.json')])];

/** The paused-worker-pool cluster once its 4.14.0 -> 4.14.1 update completed, Available. */
function at4141(): { cv: FixtureObject; co: FixtureObject } {
  const { clusterVersion: cv, clusterOperators: co } = clusterState('4.14.1-paused-worker-pool');
  cv.status.history[0].state = 'Completed';
  for (const c of cv.status.conditions) if (c.type === 'Available') c.status = 'True';
  return { cv, co };
}

describe("the stepper's step numbers", () => {
  const state = at4141();
  const cv = readClusterVersion(state.cv);
  const path = (to: string) => planUpdatePath(graphFromClusterVersion(cv), { from: '4.14.1', to });
  const message = (to: string, walk?: { done: number; towards?: string }) =>
    nextUpdateAction({
      clusterVersion: state.cv,
      clusterOperators: state.co,
      target: { version: to, channel: 'candidate-4.14' },
      path: path(to),
      ...(walk ? { walk } : {}),
    }).message;

  it('count the path alone by default, and continue the walk when told how many steps it took', () => {
    expect(message('4.14.11')).toBe('step 1/1 4.14.1 -> 4.14.11');
    expect(message('4.14.11', { done: 1, towards: '4.14.11' })).toBe('step 2/2 4.14.1 -> 4.14.11');
  });

  it('say "of at least" when the path is a hop short of the target', () => {
    expect(message('4.14.11', { done: 0, towards: '4.15.2' })).toBe('step 1 of at least 2 4.14.1 -> 4.14.11');
  });
});

/**
 * A cluster played by hand, for the hook's pure decisions: `list` serves the ClusterVersion and the
 * ClusterOperators of `state`, `apply` records the desiredUpdate Groundwork writes; nothing else is used.
 */
function handCluster(state: { cv: FixtureObject; co: FixtureObject }) {
  const writes: K8sObject[] = [];
  const target = {
    list: async (_: string, kind: string) =>
      kind === 'ClusterVersion' ? [state.cv as K8sObject] : (state.co.items as K8sObject[]),
    apply: async (obj: K8sObject) => {
      writes.push(obj);
      return obj;
    },
  } as Pick<ApplyTarget, 'list' | 'apply'> as ApplyTarget;
  const notices: string[] = [];
  const ctx = (version: string, channel: string, accepted: string[] = []): StageContext => {
    const desired: K8sObject = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: {
        name: state.cv.metadata.name,
        annotations: {
          [ANNOTATIONS.targetVersion]: version,
          ...(accepted.length ? { [ANNOTATIONS.acceptedRisks]: JSON.stringify(accepted) } : {}),
        },
      },
      spec: { channel },
    };
    return {
      stage: 'cluster-version',
      items: [{ desired } as PlanItem],
      target,
      wait: false,
      notice: (m) => notices.push(m),
    };
  };
  return { ctx, writes, notices };
}

describe('the cluster-version hook', () => {
  it('refuses 4.14.99 and a downgrade before anything is written, with the fix; accepted, lets them by', async () => {
    const cluster = handCluster(at4141());
    const hook = clusterVersionHook({ graphs: [], snapshot });
    expect(await hook.preflight!(cluster.ctx('4.14.99', 'candidate-4.14'))).toMatch(
      /^ClusterVersion\/version: target 4\.14\.99 refused \(UnknownVersion\): 4\.14\.99 is not a published OpenShift release: .*; fix: .*acceptedRisks: \['UnknownVersion'\]$/,
    );
    expect(await hook.preflight!(cluster.ctx('4.14.0', 'candidate-4.14'))).toMatch(
      /refused \(Downgrade\): 4\.14\.0 is older than 4\.14\.1: .*; fix: target 4\.14\.1 or a later release; or, if the rollback is intended, accept it with acceptedRisks: \['Downgrade'\]$/,
    );
    expect(
      await hook.preflight!(cluster.ctx('4.14.99', 'candidate-4.14', ['UnknownVersion'])),
    ).toBeUndefined();
    expect(await hook.preflight!(cluster.ctx('4.14.0', 'candidate-4.14', ['Downgrade']))).toBeUndefined();
    expect(await hook.preflight!(cluster.ctx('4.14.11', 'candidate-4.14'))).toBeUndefined();
    expect(cluster.writes).toEqual([]);
  });

  it('without the snapshot an unknown version is not caught (the old default)', async () => {
    const cluster = handCluster(at4141());
    const hook = clusterVersionHook({ graphs: [] });
    expect(await hook.preflight!(cluster.ctx('4.14.99', 'candidate-4.14'))).toBeUndefined();
  });

  it('numbers the steps of one apply against the whole walk: step 1/2, then step 2/2', async () => {
    const { clusterVersion: cv, clusterOperators: co } = clusterState('not-upgrading');
    const image = (v: string) => nodeOf(graphs[0]!, v)!.payload;
    const complete = (v: string, before?: string) => {
      cv.status.desired = { ...cv.status.desired, version: v, image: image(v) };
      cv.status.history = [
        { state: 'Completed', version: v, image: image(v), startedTime: null, completionTime: null },
        ...(before
          ? [{ state: 'Completed', version: before, image: image(before), completionTime: null }]
          : []),
      ];
      cv.spec.desiredUpdate = { version: v, image: image(v) };
      // The live graph: the one update the repository's graph takes next, as the CVO would list it.
      const next = v === '4.8.2' ? '4.8.54' : '4.9.53';
      cv.status.availableUpdates = [{ version: next, image: image(next), channels: ['stable-4.9'] }];
    };
    cv.spec.channel = 'stable-4.9';
    complete('4.8.2');
    const cluster = handCluster({ cv, co });
    const hook = clusterVersionHook({ graphs, snapshot });
    const ctx = cluster.ctx('4.9.53', 'stable-4.9');
    expect(await hook.preflight!(ctx)).toBeUndefined();
    await hook.check!(ctx);
    complete('4.8.54', '4.8.2');
    await hook.check!(ctx);
    expect(cluster.notices).toEqual([
      'ClusterVersion/version: step 1/2 4.8.2 -> 4.8.54',
      'ClusterVersion/version: step 2/2 4.8.54 -> 4.9.53',
    ]);
    expect(
      cluster.writes.map((w) => (w.spec as { desiredUpdate: { version: string } }).desiredUpdate.version),
    ).toEqual(['4.8.54', '4.9.53']);
  });
});
