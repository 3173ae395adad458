import { describe, expect, it } from 'vitest';
import type { Upgradeable } from '../../src/cluster-version/cluster-state.js';
import { type UpdateGraph, mergeGraphs, updateGraph } from '../../src/cluster-version/graph.js';
import { planUpdatePath } from '../../src/cluster-version/path.js';
import { renderUpdatePath } from '../../src/cluster-version/path-render.js';
import { cincinnati, stepsOf } from './fixtures.js';

// Every expected path below was derived by hand from the fixture files; the comments cite the
// edges (by version) that justify each step and rule out shorter or newer alternatives.

const stable48 = cincinnati('stable-4.8.json');
const stable49 = cincinnati('stable-4.9.json');
const candidate412 = cincinnati('candidate-4.12-multi.json');

const notUpgradeable: Upgradeable = {
  status: 'False',
  reason: 'ClusterOperatorsNotUpgradeable',
  blockers: [
    {
      clusterOperator: 'control-plane-machine-set',
      reason: 'AsExpected',
      message: 'cluster operator is not upgradable',
    },
    {
      clusterOperator: 'machine-config',
      reason: 'PoolUpdating',
      message: 'One or more machine config pools are updating',
    },
  ],
};

describe('planUpdatePath over stable-4.8.json (4.7.0-4.7.60, 4.8.2-4.8.54)', () => {
  it('goes 4.7.0 -> 4.7.60 -> 4.8.54 in stable-4.8', () => {
    // 4.7.0's edges all stay in 4.7 (4.7.1 ... 4.7.60), so no single step reaches 4.8.54.
    // Two steps: 4.7.0 -> 4.7.z -> 4.8.54; every 4.7.21 ... 4.7.60 has an edge to 4.8.54 and
    // 4.7.0 -> 4.7.60 exists, so the newest first hop is 4.7.60. Both are in stable-4.8.
    const path = planUpdatePath(stable48, { from: '4.7.0', to: '4.8.54', channel: 'stable-4.8' });
    expect(path.ok).toBe(true);
    expect(stepsOf(path)).toEqual([
      { from: '4.7.0', to: '4.7.60', kind: 'patch' },
      { from: '4.7.60', to: '4.8.54', kind: 'minor' },
    ]);
    // Images are the nodes' payloads.
    expect(path.ok && path.steps.map((s) => s.image)).toEqual([
      'quay.io/openshift-release-dev/ocp-release@sha256:5fddaf14ee50254838ff48c2e6d63548d360aad409bc179c308dcd0ed6dad257',
      'quay.io/openshift-release-dev/ocp-release@sha256:5d3587e7daf108a697e1a320247a729337403d500f1ec51e49501e9817053d7f',
    ]);
  });

  it('takes the direct edge 4.7.60 -> 4.8.54 (4.7.60 only has edges to 4.8.53 and 4.8.54)', () => {
    expect(stepsOf(planUpdatePath(stable48, { from: '4.7.60', to: '4.8.54' }))).toEqual([
      { from: '4.7.60', to: '4.8.54', kind: 'minor' },
    ]);
  });

  it('takes the conditional edge 4.7.0 -> 4.7.4 only with VSphereNodeNameChanges accepted', () => {
    // 4.7.4 has no unconditional incoming edge; its only incoming edges are the conditional group
    // {4.7.0, 4.7.1, 4.7.2, 4.7.3} -> 4.7.4 with risk VSphereNodeNameChanges.
    const refused = planUpdatePath(stable48, { from: '4.7.0', to: '4.7.4' });
    expect(refused).toMatchObject({
      ok: false,
      reason: 'RiskNotAccepted',
      risks: ['VSphereNodeNameChanges'],
    });
    expect(refused.ok || refused.message).toContain('https://bugzilla.redhat.com/show_bug.cgi?id=1942207#c3');
    const other = planUpdatePath(stable48, { from: '4.7.0', to: '4.7.4', acceptedRisks: ['SomethingElse'] });
    expect(other).toMatchObject({ ok: false, reason: 'RiskNotAccepted' });
    const accepted = planUpdatePath(stable48, {
      from: '4.7.0',
      to: '4.7.4',
      acceptedRisks: ['VSphereNodeNameChanges'],
    });
    expect(stepsOf(accepted)).toEqual([
      { from: '4.7.0', to: '4.7.4', kind: 'patch', conditional: ['VSphereNodeNameChanges'] },
    ]);
  });

  it('does not detour through an accepted conditional edge when it is not shorter', () => {
    // 4.7.3 -> 4.7.60 -> 4.8.54 is two steps; via 4.7.4 it would be three (4.7.4 has no 4.8 edge).
    const path = planUpdatePath(stable48, {
      from: '4.7.3',
      to: '4.8.54',
      acceptedRisks: ['VSphereNodeNameChanges'],
    });
    expect(stepsOf(path)).toEqual([
      { from: '4.7.3', to: '4.7.60', kind: 'patch' },
      { from: '4.7.60', to: '4.8.54', kind: 'minor' },
    ]);
  });

  it('Upgradeable=False blocks the minor step and names the ClusterOperators, not a patch path', () => {
    const blocked = planUpdatePath(stable48, { from: '4.7.0', to: '4.8.54', upgradeable: notUpgradeable });
    expect(blocked).toMatchObject({
      ok: false,
      reason: 'BlockedByUpgradeable',
      blockers: notUpgradeable.blockers,
    });
    expect(blocked.ok || blocked.message).toBe(
      'Upgradeable=False blocks minor step 2 (4.7.60 -> 4.8.54); patch updates are still allowed. Blocked by ' +
        'ClusterOperator control-plane-machine-set (AsExpected: cluster operator is not upgradable), ' +
        'ClusterOperator machine-config (PoolUpdating: One or more machine config pools are updating)',
    );
    // 4.8.2 -> 4.8.54 is a direct edge within 4.8.
    const patch = planUpdatePath(stable48, { from: '4.8.2', to: '4.8.54', upgradeable: notUpgradeable });
    expect(stepsOf(patch)).toEqual([{ from: '4.8.2', to: '4.8.54', kind: 'patch' }]);
  });

  it('names the ClusterVersion when Upgradeable=False has no ClusterOperator behind it', () => {
    const adminAck: Upgradeable = {
      status: 'False',
      reason: 'AdminAckRequired',
      message: 'ack the API removals',
      blockers: [],
    };
    const blocked = planUpdatePath(stable48, { from: '4.7.60', to: '4.8.54', upgradeable: adminAck });
    expect(blocked.ok || blocked.message).toContain(
      'Blocked by ClusterVersion (AdminAckRequired: ack the API removals)',
    );
  });

  it('refuses a downgrade except a rollback to the previous version within the minor', () => {
    expect(planUpdatePath(stable48, { from: '4.8.54', to: '4.8.53' })).toMatchObject({
      ok: false,
      reason: 'Downgrade',
    });
    expect(
      planUpdatePath(stable48, { from: '4.8.54', to: '4.8.53', previousVersion: '4.8.52' }),
    ).toMatchObject({
      ok: false,
      reason: 'Downgrade',
      message:
        "4.8.53 is older than 4.8.54: the only supported rollback is to the cluster's previous version 4.8.52",
    });
    const rollback = planUpdatePath(stable48, { from: '4.8.54', to: '4.8.53', previousVersion: '4.8.53' });
    expect(stepsOf(rollback)).toEqual([{ from: '4.8.54', to: '4.8.53', kind: 'patch', rollback: true }]);
    // Across a minor even the previous version is refused (the CVO's Rollback precondition).
    expect(
      planUpdatePath(stable48, { from: '4.8.2', to: '4.7.60', previousVersion: '4.7.60' }),
    ).toMatchObject({
      ok: false,
      reason: 'Downgrade',
    });
  });

  it('refuses a target outside the channel, by release metadata', () => {
    // 4.7.10 lists candidate-4.7,candidate-4.8,fast-4.8,stable-4.8: it was pulled from stable-4.7.
    expect(planUpdatePath(stable48, { from: '4.7.0', to: '4.7.10', channel: 'stable-4.7' })).toMatchObject({
      ok: false,
      reason: 'NotInChannel',
      message: '4.7.10 is not in channel stable-4.7',
    });
    // eus-4.8 only carries 4.7.34 and later 4.7 releases.
    expect(planUpdatePath(stable48, { from: '4.7.0', to: '4.7.9', channel: 'eus-4.8' })).toMatchObject({
      reason: 'NotInChannel',
    });
    expect(planUpdatePath(stable48, { from: '4.7.0', to: '4.8.54', channel: 'stable-4.7' })).toMatchObject({
      reason: 'NotInChannel',
    });
  });

  it('refuses unknown versions, bad input and major updates', () => {
    expect(planUpdatePath(stable48, { from: '4.7.0', to: '4.9.53' })).toMatchObject({
      reason: 'NotInGraph',
      message: '4.9.53 is not a release in stable-4.8.json',
    });
    expect(planUpdatePath(stable48, { from: '4.6.1', to: '4.7.60' })).toMatchObject({ reason: 'NotInGraph' });
    expect(planUpdatePath(stable48, { from: 'latest', to: '4.8.54' })).toMatchObject({
      reason: 'InvalidVersion',
    });
    expect(planUpdatePath(stable48, { from: '4.7.0', to: '4.8.54', channel: 'eus-4.9' })).toMatchObject({
      reason: 'InvalidChannel',
    });
    expect(planUpdatePath(stable48, { from: '4.8.54', to: '5.0.0' })).toMatchObject({
      reason: 'MajorVersionUpdate',
    });
  });

  it('returns an empty path when already at the target', () => {
    const path = planUpdatePath(stable48, { from: '4.8.54', to: '4.8.54' });
    expect(path).toEqual({ ok: true, from: '4.8.54', to: '4.8.54', steps: [] });
    expect(renderUpdatePath(path)).toBe('Already at 4.8.54: nothing to update.');
  });
});

describe('planUpdatePath over stable-4.9.json (4.8.2-4.8.54, 4.9.0-4.9.53)', () => {
  it('goes 4.8.2 -> 4.8.54 -> 4.9.53', () => {
    // 4.8.2 has no 4.9 edge (4.8.3, 4.8.4, 4.8.10 ... 4.8.54); 4.8.2 -> 4.8.54 exists and 4.8.54's
    // only 4.9 edge is 4.9.53, so the newest first hop of a two-step path is 4.8.54.
    expect(stepsOf(planUpdatePath(stable49, { from: '4.8.2', to: '4.9.53', channel: 'stable-4.9' }))).toEqual(
      [
        { from: '4.8.2', to: '4.8.54', kind: 'patch' },
        { from: '4.8.54', to: '4.9.53', kind: 'minor' },
      ],
    );
  });

  it('takes the direct minor edge 4.8.14 -> 4.9.53 (4.8.14 updates to 4.9.28 ... 4.9.53)', () => {
    expect(stepsOf(planUpdatePath(stable49, { from: '4.8.14', to: '4.9.53' }))).toEqual([
      { from: '4.8.14', to: '4.9.53', kind: 'minor' },
    ]);
  });

  it('goes 4.8.2 -> 4.8.53 -> 4.9.52, with or without eus-4.10', () => {
    // 4.9.52's 4.8 sources are 4.8.14 ... 4.8.53 (not 4.8.54); 4.8.2 -> 4.8.53 exists. In eus-4.10
    // 4.8.54 is excluded anyway (its channels lack eus-4.10), and 4.8.53 and 4.9.52 are in it.
    const expected = [
      { from: '4.8.2', to: '4.8.53', kind: 'patch' },
      { from: '4.8.53', to: '4.9.52', kind: 'minor' },
    ];
    expect(stepsOf(planUpdatePath(stable49, { from: '4.8.2', to: '4.9.52' }))).toEqual(expected);
    expect(stepsOf(planUpdatePath(stable49, { from: '4.8.2', to: '4.9.52', channel: 'eus-4.10' }))).toEqual(
      expected,
    );
    // 4.9.53 lists only candidate-4.9, fast-4.9, stable-4.9.
    expect(planUpdatePath(stable49, { from: '4.8.2', to: '4.9.53', channel: 'eus-4.10' })).toMatchObject({
      reason: 'NotInChannel',
    });
    expect(planUpdatePath(stable49, { from: '4.8.2', to: '4.9.53', channel: 'stable-4.8' })).toMatchObject({
      reason: 'NotInChannel',
    });
  });

  it('finds no path from the newest 4.8.54 to 4.9.52, nor into 4.9.0', () => {
    // 4.8.54 -> 4.9.53 is its only 4.9 edge and 4.9.53 has no outgoing edge; 4.9.0 has no incoming edge.
    expect(planUpdatePath(stable49, { from: '4.8.54', to: '4.9.52' })).toMatchObject({
      ok: false,
      reason: 'NoPath',
      message: 'no chain of updates leads from 4.8.54 to 4.9.52 in stable-4.9.json',
    });
    expect(planUpdatePath(stable49, { from: '4.8.14', to: '4.9.0' })).toMatchObject({ reason: 'NoPath' });
  });

  it('Upgradeable=False blocks 4.8.14 -> 4.9.53 but not 4.9.0 -> 4.9.53', () => {
    expect(
      planUpdatePath(stable49, { from: '4.8.14', to: '4.9.53', upgradeable: notUpgradeable }),
    ).toMatchObject({
      reason: 'BlockedByUpgradeable',
    });
    expect(
      stepsOf(planUpdatePath(stable49, { from: '4.9.0', to: '4.9.53', upgradeable: notUpgradeable })),
    ).toEqual([{ from: '4.9.0', to: '4.9.53', kind: 'patch' }]);
  });

  it('refuses an EUS control-plane-only update that is not 4.even -> 4.even+2', () => {
    expect(
      planUpdatePath(stable49, { from: '4.8.14', to: '4.9.53', eusControlPlaneOnly: true }),
    ).toMatchObject({
      reason: 'NotEusToEus',
    });
  });
});

describe('planUpdatePath over candidate-4.12-multi.json (4.12.0-rc.0 ... rc.4, all forward edges)', () => {
  it('takes the direct edge rc.0 -> rc.4 (edge [0,4]) as a patch step', () => {
    const path = planUpdatePath(candidate412, {
      from: '4.12.0-rc.0',
      to: '4.12.0-rc.4',
      channel: 'candidate-4.12',
    });
    expect(stepsOf(path)).toEqual([{ from: '4.12.0-rc.0', to: '4.12.0-rc.4', kind: 'patch' }]);
  });

  it('knows the rcs are in candidate-4.13 too, but not in stable-4.12', () => {
    expect(
      stepsOf(
        planUpdatePath(candidate412, { from: '4.12.0-rc.1', to: '4.12.0-rc.3', channel: 'candidate-4.13' }),
      ),
    ).toEqual([{ from: '4.12.0-rc.1', to: '4.12.0-rc.3', kind: 'patch' }]);
    expect(
      planUpdatePath(candidate412, { from: '4.12.0-rc.1', to: '4.12.0-rc.3', channel: 'stable-4.12' }),
    ).toMatchObject({
      reason: 'NotInChannel',
    });
  });

  it('orders prereleases: rc.4 -> rc.0 is a downgrade, rc.4 -> rc.3 a rollback when rc.3 was previous', () => {
    expect(planUpdatePath(candidate412, { from: '4.12.0-rc.4', to: '4.12.0-rc.0' })).toMatchObject({
      reason: 'Downgrade',
    });
    const rollback = planUpdatePath(candidate412, {
      from: '4.12.0-rc.4',
      to: '4.12.0-rc.3',
      previousVersion: '4.12.0-rc.3',
    });
    expect(stepsOf(rollback)).toEqual([
      { from: '4.12.0-rc.4', to: '4.12.0-rc.3', kind: 'patch', rollback: true },
    ]);
  });
});

describe('planUpdatePath over stable-4.8.json + stable-4.9.json merged', () => {
  const merged = mergeGraphs([stable48, stable49]);

  it('goes minor by minor: 4.7.0 -> 4.7.60 -> 4.8.54 -> 4.9.53', () => {
    // 4.7.0 reaches no 4.8 release directly, so at least 3 steps; 4.7.60 -> 4.8.54 -> 4.9.53 exists
    // (4.8.54's only 4.9 edge is 4.9.53) and 4.7.60 / 4.8.54 are the newest releases at each hop.
    expect(stepsOf(planUpdatePath(merged, { from: '4.7.0', to: '4.9.53' }))).toEqual([
      { from: '4.7.0', to: '4.7.60', kind: 'patch' },
      { from: '4.7.60', to: '4.8.54', kind: 'minor' },
      { from: '4.8.54', to: '4.9.53', kind: 'minor' },
    ]);
  });

  it('finds no single-channel path 4.7 -> 4.9: stable-4.9 carries no 4.7 release to pass through', () => {
    expect(planUpdatePath(merged, { from: '4.7.0', to: '4.9.53', channel: 'stable-4.9' })).toMatchObject({
      reason: 'NoPath',
      message:
        'no chain of updates leads from 4.7.0 to 4.9.53 within channel stable-4.9 in stable-4.8.json + stable-4.9.json',
    });
  });

  it('never takes an edge that skips a minor, and says so when it is the only way', () => {
    // Derived variant: a direct 4.7.60 -> 4.9.53 edge (never published) next to the real graph.
    const withSkip = withExtraEdge(merged, '4.7.60', '4.9.53');
    expect(stepsOf(planUpdatePath(withSkip, { from: '4.7.60', to: '4.9.53' }))).toEqual([
      { from: '4.7.60', to: '4.8.54', kind: 'minor' },
      { from: '4.8.54', to: '4.9.53', kind: 'minor' },
    ]);
    // Without any 4.8 release, the skip edge is the only route and is refused.
    const no48 = updateGraph({
      source: 'no-4.8',
      nodes: withSkip.nodes.filter((n) => !n.version.startsWith('4.8.')),
      edges: withSkip.edges.filter((e) => !e.from.startsWith('4.8.') && !e.to.startsWith('4.8.')),
    });
    expect(planUpdatePath(no48, { from: '4.7.60', to: '4.9.53' })).toMatchObject({
      reason: 'SkippedMinor',
      message: 'no 4.8 release in no-4.8: updates cannot skip a minor',
    });
    // With 4.8 releases present but unreachable, the diagnosis names the skipping edge.
    const unreachable48 = updateGraph({
      source: 'unreachable-4.8',
      nodes: withSkip.nodes,
      edges: withSkip.edges.filter((e) => !(e.from.startsWith('4.7.') && e.to.startsWith('4.8.'))),
    });
    expect(planUpdatePath(unreachable48, { from: '4.7.60', to: '4.9.53' })).toMatchObject({
      reason: 'SkippedMinor',
      message: 'the only route takes 4.7.60 -> 4.9.53, which skips a minor',
    });
  });
});

function withExtraEdge(graph: UpdateGraph, from: string, to: string): UpdateGraph {
  return updateGraph({
    source: graph.source,
    nodes: graph.nodes,
    edges: [...graph.edges, { from, to, risks: [] }],
  });
}
