import { describe, expect, it } from 'vitest';
import { PROPOSE_DEFAULTS, type KindPolicy } from '../../src/project/propose-config.js';
import { chartCandidates } from '../../src/propose/chart-candidate.js';
import { clusterVersionDecision } from '../../src/propose/cluster-version-candidate.js';
import { operatorDecision } from '../../src/propose/operator-candidate.js';
import type { ChartPin, ClusterVersionPin, OperatorPin } from '../../src/propose/pins.js';
import { dependenciesCatalog, keplerCatalog, stable48, stable48Subgraph } from './fixtures.js';

const NOW = new Date('2026-11-28T06:00:00Z');
const policy = (over: Partial<KindPolicy> = {}): KindPolicy => ({ ...PROPOSE_DEFAULTS, ...over });
const kepler = (csv = 'kepler-operator.v0.24.0'): OperatorPin => ({
  kind: 'operator',
  subject: 'kepler-operator',
  value: csv,
  channel: 'alpha',
  construct: 'platform/kepler',
  overlays: ['dev'],
});
const openshift = (version: string, channel: string, acceptedRisks: string[] = []): ClusterVersionPin => ({
  kind: 'cluster-version',
  subject: 'openshift',
  value: version,
  channel,
  acceptedRisks,
  overlays: ['dev'],
});

describe('operator candidates: OLM paths in the pinned channel', () => {
  const patched = keplerCatalog('- name: kepler-operator.v0.24.1\n  replaces: kepler-operator.v0.24.0\n', [
    '0.24.1',
  ]);

  it('proposes the patch inside the channel (one InstallPlan, replaces)', () => {
    const d = operatorDecision(kepler(), [patched], policy(), NOW);
    expect(d.pick).toMatchObject({
      to: 'kepler-operator.v0.24.1',
      version: '0.24.1',
      from: '0.24.0',
      notes: [],
    });
    expect(d.refused).toEqual([]);
  });

  it('with update: minor, walks the replaces chain and says how many InstallPlans it takes', () => {
    const d = operatorDecision(
      kepler('kepler-operator.v0.22.0'),
      [patched],
      policy({ update: 'minor' }),
      NOW,
    );
    expect(d.pick?.to).toBe('kepler-operator.v0.24.1');
    expect(d.pick?.notes).toContain(
      'OLM takes 3 InstallPlans: kepler-operator.v0.22.0 → kepler-operator.v0.23.0 → kepler-operator.v0.24.0 → kepler-operator.v0.24.1',
    );
  });

  it('with update: patch, names the newer minor it leaves out', () => {
    const d = operatorDecision(kepler('kepler-operator.v0.23.0'), [patched], policy(), NOW);
    expect(d.pick).toBeUndefined();
    expect(d.refused).toEqual([]);
    const minor = operatorDecision(kepler('kepler-operator.v0.22.0'), [patched], policy(), NOW);
    expect(minor.pick).toBeUndefined();
  });

  it('names a skipRange hop and the versions it passes over', () => {
    const catalog = keplerCatalog(
      "- name: kepler-operator.v0.24.1\n  replaces: kepler-operator.v0.24.0\n- name: kepler-operator.v0.24.2\n  replaces: kepler-operator.v0.24.1\n  skipRange: '>=0.24.0 <0.24.2'\n",
      ['0.24.1', '0.24.2'],
    );
    const d = operatorDecision(kepler(), [catalog], policy(), NOW);
    expect(d.pick?.to).toBe('kepler-operator.v0.24.2');
    expect(d.pick?.notes.join('\n')).toContain(
      'kepler-operator.v0.24.2 is reached over skipRange (skipRange >=0.24.0 <0.24.2)',
    );
  });

  it('refuses what OLM would not reach: a skipped entry and a head with no edge from the pin', () => {
    const catalog = keplerCatalog(
      '- name: kepler-operator.v0.24.1\n  replaces: kepler-operator.v0.24.0\n- name: kepler-operator.v0.24.2\n  replaces: kepler-operator.v0.24.1\n  skips:\n  - kepler-operator.v0.24.1\n',
      ['0.24.1', '0.24.2'],
    );
    const d = operatorDecision(kepler(), [catalog], policy(), NOW);
    expect(d.pick).toBeUndefined();
    expect(d.refused.map((r) => r.to)).toEqual(['kepler-operator.v0.24.2', 'kepler-operator.v0.24.1']);
    for (const r of d.refused)
      expect(r.reason).toMatch(/^OLM would not update to it: .*\[(no-update-edge|target-skipped)\]$/);
    expect(d.refused[1]!.reason).toContain('[target-skipped]');
  });

  it('refuses a step whose dependencies no catalog meets, naming the requirement', () => {
    const catalog = dependenciesCatalog((t) =>
      t.replace("versionRange: '>=0.9.0 <0.10.0'", "versionRange: '>=1.0.0'"),
    );
    const pin: OperatorPin = { ...kepler('etcd-app.v1.0.0'), subject: 'etcd-app', channel: 'stable' };
    const d = operatorDecision(pin, [catalog], policy({ update: 'minor' }), NOW);
    expect(d.pick).toBeUndefined();
    expect(d.refused).toHaveLength(1);
    expect(d.refused[0]!.reason).toMatch(
      /^OLM cannot plan etcd-app\.v1\.1\.0: .*etcd.*>=1\.0\.0.*no catalog of groundwork\.yaml satisfies it$/,
    );
    const met = operatorDecision(pin, [dependenciesCatalog()], policy({ update: 'minor' }), NOW);
    expect(met.pick?.to).toBe('etcd-app.v1.1.0');
    expect(met.pick?.notes.join('\n')).toContain('brings dependency etcdoperator.v0.9.4');
  });

  it('refuses when no catalog carries the package, the channel or the pinned CSV', () => {
    expect(operatorDecision(kepler(), [], policy(), NOW).refused[0]!.reason).toContain(
      'carries package kepler-operator',
    );
    expect(
      operatorDecision({ ...kepler(), channel: 'beta' }, [patched], policy(), NOW).refused[0]!.reason,
    ).toContain('has no channel beta');
    expect(
      operatorDecision(kepler('kepler-operator.v9.0.0'), [patched], policy(), NOW).refused[0]!.reason,
    ).toContain('is not in catalogs/kepler-operator.yaml');
  });

  it('refuses ignored versions and, with a minimum age, every undated catalog version', () => {
    const ignored = operatorDecision(
      kepler(),
      [patched],
      policy({ ignore: [{ subject: 'kepler-operator', range: '0.24.1' }] }),
      NOW,
    );
    expect(ignored.refused).toEqual([
      { to: 'kepler-operator.v0.24.1', reason: 'ignored by propose policy (kepler-operator@0.24.1)' },
    ]);
    const aged = operatorDecision(
      kepler(),
      [patched],
      policy({ minimumAge: '7d', minimumAgeMs: 604_800_000 }),
      NOW,
    );
    expect(aged.pick).toBeUndefined();
    expect(aged.refused[0]!.reason).toContain('OLM catalogs carry no release dates');
  });
});

describe('OpenShift candidates: edges of the update graph', () => {
  it('proposes the newest z-stream the graph offers in the channel, one edge away', () => {
    const d = clusterVersionDecision(openshift('4.8.10', 'stable-4.8'), stable48(), policy(), NOW);
    expect(d.pick).toMatchObject({ to: '4.8.54', notes: [] });
    expect(d.pick?.channel).toBeUndefined();
  });

  it('names a conditional risk and does not accept it: the newer release is refused, the safe one proposed', () => {
    const graph = stable48Subgraph(['4.7.2', '4.7.3', '4.7.4']);
    const d = clusterVersionDecision(openshift('4.7.2', 'stable-4.7'), graph, policy(), NOW);
    expect(d.pick?.to).toBe('4.7.3');
    expect(d.refused).toHaveLength(1);
    expect(d.refused[0]!.to).toBe('4.7.4');
    expect(d.refused[0]!.reason).toContain('conditional update with risk VSphereNodeNameChanges');
    expect(d.refused[0]!.reason).toContain('https://bugzilla.redhat.com/show_bug.cgi?id=1942207#c3');
    expect(d.refused[0]!.reason).toContain("not accepted on the team's behalf");
  });

  it('takes a conditional step only when the target already accepts its risk, and says so', () => {
    const graph = stable48Subgraph(['4.7.2', '4.7.3', '4.7.4']);
    const d = clusterVersionDecision(
      openshift('4.7.2', 'stable-4.7', ['VSphereNodeNameChanges']),
      graph,
      policy(),
      NOW,
    );
    expect(d.pick?.to).toBe('4.7.4');
    expect(d.pick?.notes.join('\n')).toMatch(
      /4\.7\.2 → 4\.7\.4 is a conditional update: risk VSphereNodeNameChanges: vSphere .*already accept it/,
    );
  });

  it('refuses a release that is not an edge away', () => {
    const graph = stable48Subgraph(['4.7.2', '4.7.3'], ['4.7.2->4.7.3']);
    const d = clusterVersionDecision(openshift('4.7.2', 'stable-4.7'), graph, policy(), NOW);
    expect(d.pick).toBeUndefined();
    expect(d.refused[0]).toMatchObject({ to: '4.7.3' });
    expect(d.refused[0]!.reason).toMatch(/^the update graph refuses it: .*\[NoPath\]$/);
  });

  it('with update: minor, moves to the next minor and its channel', () => {
    const d = clusterVersionDecision(
      openshift('4.7.55', 'stable-4.7'),
      stable48(),
      policy({ update: 'minor' }),
      NOW,
    );
    expect(d.pick).toMatchObject({ to: '4.8.54', channel: 'stable-4.8' });
    expect(d.pick?.notes).toContain('moves the channel stable-4.7 → stable-4.8');
  });

  it('refuses a target without an OpenShift channel', () => {
    expect(
      clusterVersionDecision(openshift('4.8.10', 'latest'), stable48(), policy(), NOW).refused[0]!.reason,
    ).toContain('is not an OpenShift channel');
  });
});

describe('chart candidates: the index under the policy', () => {
  const pin: ChartPin = {
    kind: 'chart',
    subject: 'podinfo',
    value: '6.5.0',
    repo: 'https://charts.example',
    overlays: ['dev'],
  };
  const versions = [
    { version: '6.5.1', created: new Date('2026-11-01T00:00:00Z') },
    { version: '6.5.2', created: new Date('2026-11-27T00:00:00Z') },
    { version: '6.6.0', created: new Date('2026-11-02T00:00:00Z') },
    { version: '6.4.9' },
    { version: 'not-semver' },
  ];

  it('lists newer patch versions newest first and names the minor outside the policy', () => {
    expect(chartCandidates(pin, versions, policy(), NOW)).toEqual({
      allowed: ['6.5.2', '6.5.1'],
      outside: ['6.6.0'],
      refused: [],
    });
  });

  it('refuses a version younger than minimumAge and an ignored one', () => {
    const found = chartCandidates(
      pin,
      versions,
      policy({
        minimumAge: '3d',
        minimumAgeMs: 3 * 86_400_000,
        ignore: [{ subject: 'podinfo', range: '6.5.1' }],
      }),
      NOW,
    );
    expect(found.allowed).toEqual([]);
    expect(found.refused).toEqual([
      { to: '6.5.2', reason: 'released 2026-11-27T00:00:00.000Z, younger than minimumAge 3d' },
      { to: '6.5.1', reason: 'ignored by propose policy (podinfo@6.5.1)' },
    ]);
  });
});
