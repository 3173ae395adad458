import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  readClusterOperators,
  readClusterVersion,
  type ClusterVersionState,
} from '../../src/cluster-version/cluster-state.js';
import { mergeGraphs, nodeOf } from '../../src/cluster-version/graph.js';
import { loadReleaseSnapshot } from '../../src/cluster-version/release-snapshot.js';
import {
  planClusterUpdate,
  type ClusterUpdateIntent,
  type ClusterUpdatePlan,
} from '../../src/cluster-version/update-plan.js';
import { renderClusterUpdatePlan } from '../../src/cluster-version/update-plan-render.js';
import { expectGolden } from '../harness/golden.js';
import { cincinnati, clusterState, type FixtureObject } from './fixtures.js';

// The update `groundwork plan` shows and the version stage walks, over the real cluster-state dumps,
// the real Cincinnati responses and the shipped graph-data snapshot. Plan texts are golden files.

const GOLDEN = fileURLToPath(new URL('./golden/', import.meta.url));
const snapshot = await loadReleaseSnapshot();
const stable48and49 = mergeGraphs([cincinnati('stable-4.8.json'), cincinnati('stable-4.9.json')]);

/** The paused-worker-pool cluster once its 4.14.0 -> 4.14.1 update completed (previous version 4.14.0). */
function at4141(): { cv: FixtureObject; co: FixtureObject } {
  const { clusterVersion: cv, clusterOperators: co } = clusterState('4.14.1-paused-worker-pool');
  cv.status.history[0].state = 'Completed';
  cv.status.history[0].completionTime = '2024-02-07T17:10:00Z';
  return { cv, co };
}

/** The not-upgrading dump moved to `version` (payload from the stable-4.8/4.9 responses), its update service listing nothing. */
function at(version: string, channel: string): { cv: FixtureObject; co: FixtureObject } {
  const { clusterVersion: cv, clusterOperators: co } = clusterState('not-upgrading');
  const image = nodeOf(stable48and49, version)!.payload;
  cv.spec.channel = channel;
  cv.status.desired = { ...cv.status.desired, version, image };
  cv.status.history[0] = { ...cv.status.history[0], version, image };
  return { cv, co };
}
const at482 = () => at('4.8.2', 'stable-4.9');

function intent(version: string, channel: string, acceptedRisks: string[] = []): ClusterUpdateIntent {
  return { name: 'version', controlPlaneOnly: false, target: { version, channel, acceptedRisks } };
}

function planOf(
  state: { cv: FixtureObject; co: FixtureObject },
  target: ClusterUpdateIntent,
  graphs = [] as Parameters<typeof planClusterUpdate>[0]['graphs'],
): ClusterUpdatePlan {
  const clusterVersion: ClusterVersionState = readClusterVersion(state.cv);
  return planClusterUpdate({
    intent: target,
    clusterVersion,
    clusterOperators: readClusterOperators(state.co),
    graphs,
    snapshot,
  });
}

const brief = (p: ClusterUpdatePlan) => p.blockers.map((b) => [b.code, b.definitive]);

describe('planClusterUpdate', () => {
  it('a valid two-step path over the repository graphs: every step, nothing blocks (golden)', () => {
    const plan = planOf(at482(), intent('4.9.53', 'stable-4.9'), [stable48and49]);
    expect(plan.path.ok && plan.path.steps.map((s) => `${s.from}->${s.to} ${s.kind}`)).toEqual([
      '4.8.2->4.8.54 patch',
      '4.8.54->4.9.53 minor',
    ]);
    expect(plan).toMatchObject({ current: '4.8.2', target: '4.9.53', complete: true, blockers: [] });
    expectGolden(`${GOLDEN}plan-4.8.2-to-4.9.53.txt`, `${renderClusterUpdatePlan(plan)}\n`);
  });

  it('a valid step the cluster offers, from its own availableUpdates alone', () => {
    const plan = planOf(at4141(), intent('4.14.11', 'candidate-4.14'));
    expect(plan.path).toMatchObject({ ok: true, steps: [{ from: '4.14.1', to: '4.14.11' }] });
    expect(plan.blockers).toEqual([]);
    expect(plan.findings).toEqual([]);
  });

  it('4.14.99 does not exist: UnknownVersion blocks, with the fix; accepted, the walk goes towards it (golden)', () => {
    const plan = planOf(at4141(), intent('4.14.99', 'candidate-4.14'));
    expect(brief(plan)).toEqual([['UnknownVersion', true]]);
    expect(plan.blockers[0]!.message).toBe(
      '4.14.99 is not a published OpenShift release: it is in no channel of openshift/cincinnati-graph-data @ 731d0424 (2026-08-21), nor in ClusterVersion/version',
    );
    expect(plan.blockers[0]!.fix).toContain("accept it with acceptedRisks: ['UnknownVersion']");
    expectGolden(`${GOLDEN}plan-4.14.1-to-4.14.99.txt`, `${renderClusterUpdatePlan(plan)}\n`);

    // Accepted: the newest patch the cluster offers first, the rest once the update service offers it.
    const accepted = planOf(at4141(), intent('4.14.99', 'candidate-4.14', ['UnknownVersion']));
    expect(accepted.blockers).toEqual([]);
    expect(accepted).toMatchObject({ complete: false, path: { ok: true, to: '4.14.11' } });
    expect(accepted.findings).toMatchObject([{ risk: 'UnknownVersion', accepted: true }]);
  });

  it('a release the cluster offers but the snapshot predates is known', () => {
    const state = at4141();
    state.cv.status.availableUpdates.push({
      version: '4.14.99',
      image: 'quay.io/openshift-release-dev/ocp-release@sha256:4149',
      channels: ['candidate-4.14'],
    });
    expect(planOf(state, intent('4.14.99', 'candidate-4.14')).blockers).toEqual([]);
  });

  it('a downgrade to the previous version blocks unless accepted, then is a rollback step (golden)', () => {
    const plan = planOf(at4141(), intent('4.14.0', 'candidate-4.14'));
    expect(brief(plan)).toEqual([['Downgrade', true]]);
    expect(plan.blockers[0]!.message).toContain(
      "a rollback to the cluster's previous version, which the cluster-version operator allows within a z-stream",
    );
    expectGolden(`${GOLDEN}plan-4.14.1-to-4.14.0.txt`, `${renderClusterUpdatePlan(plan)}\n`);

    const accepted = planOf(at4141(), intent('4.14.0', 'candidate-4.14', ['Downgrade']));
    expect(accepted.blockers).toEqual([]);
    expect(accepted.path).toMatchObject({ ok: true, steps: [{ to: '4.14.0', rollback: true }] });
  });

  it('a downgrade the cluster-version operator refuses blocks even when accepted', () => {
    const older = planOf(at4141(), intent('4.13.30', 'candidate-4.14', ['Downgrade']));
    expect(brief(older)).toEqual([['Downgrade', true]]);
    expect(older.blockers[0]!.message).toBe(
      '4.13.30 is older than 4.14.1 and in another minor: the cluster-version operator refuses rollbacks that change the major or minor version',
    );
    const notPrevious = planOf(at482(), intent('4.8.1', 'stable-4.9', ['Downgrade']), [stable48and49]);
    expect(notPrevious.blockers[0]!.message).toBe(
      '4.8.1 is older than 4.8.2, and the cluster has no previous version: the cluster-version operator rolls back only to the previous version',
    );
  });

  it('a conditional risk not accepted blocks, naming the risk; accepted, the step carries it (golden)', () => {
    // The real stable-4.8 response: 4.7.0 -> 4.7.4 only through VSphereNodeNameChanges.
    const state = at('4.7.0', 'stable-4.8');
    const graphs = [cincinnati('stable-4.8.json')];
    const plan = planOf(state, intent('4.7.4', 'stable-4.8'), graphs);
    expect(brief(plan)).toEqual([['RiskNotAccepted', true]]);
    expect(plan.risks).toEqual([{ name: 'VSphereNodeNameChanges', version: '4.7.4', accepted: false }]);
    expect(plan.blockers[0]!.fix).toContain("acceptedRisks: ['VSphereNodeNameChanges']");
    expectGolden(`${GOLDEN}plan-4.7.0-to-4.7.4-risk.txt`, `${renderClusterUpdatePlan(plan)}\n`);

    const accepted = planOf(state, intent('4.7.4', 'stable-4.8', ['VSphereNodeNameChanges']), graphs);
    expect(accepted.blockers).toEqual([]);
    expect(accepted.risks).toEqual([{ name: 'VSphereNodeNameChanges', version: '4.7.4', accepted: true }]);
  });

  it("a conditional update the cluster does not recommend: the cluster's own risk, not accepted", () => {
    const state = at4141();
    const status = state.cv.status;
    status.availableUpdates = status.availableUpdates.filter(
      (u: { version: string }) => u.version !== '4.14.9',
    );
    status.conditionalUpdates[0].conditions[0].status = 'False';
    const plan = planOf(state, intent('4.14.9', 'candidate-4.14'));
    expect(brief(plan)).toEqual([['RiskNotAccepted', true]]);
    expect(plan.risks).toEqual([{ name: 'AROBrokenDNSMasq', version: '4.14.9', accepted: false }]);
  });

  it('from the live graph alone a minor target is a hop: the path says where it stops (golden)', () => {
    const plan = planOf(at4141(), intent('4.15.2', 'candidate-4.14'));
    expect(plan.complete).toBe(false);
    expect(plan.path).toMatchObject({ ok: true, to: '4.14.11' });
    expectGolden(`${GOLDEN}plan-4.14.1-to-4.15.2-hop.txt`, `${renderClusterUpdatePlan(plan)}\n`);
  });

  it('Upgradeable=False holds the minor step, and says who', () => {
    const state = at482();
    const degraded = clusterState('4.14.1-degraded').clusterOperators.items.find(
      (co: FixtureObject) => co.metadata.name === 'machine-config',
    );
    const upgradeable = degraded.status.conditions.find((c: { type: string }) => c.type === 'Upgradeable');
    const mco = state.co.items.find((co: FixtureObject) => co.metadata.name === 'machine-config');
    mco.status.conditions = [
      ...mco.status.conditions.filter((c: { type: string }) => c.type !== 'Upgradeable'),
      upgradeable,
    ];
    const plan = planOf(state, intent('4.9.53', 'stable-4.9'), [stable48and49]);
    expect(brief(plan)).toEqual([['UpgradeableFalse', false]]);
    expect(plan.blockers[0]!.message).toMatch(
      /^Upgradeable=False holds the minor step 2 \(4\.8\.54 -> 4\.9\.53\): ClusterOperator machine-config/,
    );
  });
});
