import { describe, expect, it } from 'vitest';
import { readClusterVersion } from '../../src/cluster-version/cluster-state.js';
import { InvalidUpdateGraphError } from '../../src/cluster-version/errors.js';
import {
  edgeOf,
  edgesFrom,
  graphFromCincinnati,
  graphFromClusterVersion,
  mergeGraphs,
  nodeOf,
} from '../../src/cluster-version/graph.js';
import { cincinnati, clusterState, fixtureText } from './fixtures.js';

describe('graphFromCincinnati', () => {
  it('reads stable-4.8.json: 101 releases, 3168 edges plus 4 conditional ones', () => {
    const graph = cincinnati('stable-4.8.json');
    expect(graph.source).toBe('stable-4.8.json');
    expect(graph.nodes).toHaveLength(101);
    expect(graph.edges).toHaveLength(3172);
    expect(graph.nodes[0]!.version).toBe('4.7.0');
    expect(graph.nodes.at(-1)!.version).toBe('4.8.54');
    expect(edgeOf(graph, '4.7.0', '4.7.4')).toEqual({
      from: '4.7.0',
      to: '4.7.4',
      risks: [
        {
          name: 'VSphereNodeNameChanges',
          url: 'https://bugzilla.redhat.com/show_bug.cgi?id=1942207#c3',
          message:
            'vSphere clusters leveraging the vSphere cloud provider may lose node names which can have serious impacts on the stability of the control plane and workloads.',
          matchingRules: [
            {
              type: 'PromQL',
              promql: {
                promql:
                  'cluster_infrastructure_provider{type=~"VSphere|None"}\nor\n0 * cluster_infrastructure_provider\n',
              },
            },
          ],
        },
      ],
    });
    expect(edgeOf(graph, '4.7.60', '4.8.54')?.risks).toEqual([]);
    expect(edgesFrom(graph, '4.7.60').map((e) => e.to)).toEqual(['4.8.53', '4.8.54']);
    expect(nodeOf(graph, '4.7.10')).toMatchObject({
      payload:
        'quay.io/openshift-release-dev/ocp-release@sha256:24f0bcf67474e06ceb1091fc63bddd6010e1d13f5fe5604962a4579ee98b8e22',
      channels: ['candidate-4.7', 'candidate-4.8', 'fast-4.8', 'stable-4.8'],
    });
  });

  it('reads stable-4.9.json and candidate-4.12-multi.json', () => {
    const s49 = cincinnati('stable-4.9.json');
    expect([s49.nodes.length, s49.edges.length]).toEqual([90, 2544]);
    const c412 = cincinnati('candidate-4.12-multi.json');
    expect(c412.nodes.map((n) => n.version)).toEqual([
      '4.12.0-rc.0',
      '4.12.0-rc.1',
      '4.12.0-rc.2',
      '4.12.0-rc.3',
      '4.12.0-rc.4',
    ]);
    expect(c412.edges).toHaveLength(10);
    expect(nodeOf(c412, '4.12.0-rc.4')!.metadata['release.openshift.io/architecture']).toBe('multi');
  });

  it('names the file and lists every problem', () => {
    expect(() => graphFromCincinnati('{"nodes": [', 'broken.json')).toThrowError(
      /^broken\.json: 1 problem\(s\): not JSON/,
    );
    // Derived variant of stable-4.9.json: a bad version, a node without payload and an edge out of range.
    const variant = JSON.parse(fixtureText('update-graphs/stable-4.9.json'));
    variant.nodes[0].version = 'latest';
    delete variant.nodes[1].payload;
    variant.edges.push([0, 999]);
    let error: unknown;
    try {
      graphFromCincinnati(JSON.stringify(variant), 'stable-4.9-variant.json');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidUpdateGraphError);
    const e = error as InvalidUpdateGraphError;
    expect(e.code).toBe('InvalidUpdateGraph');
    expect(e.subject).toBe('stable-4.9-variant.json');
    expect(e.problems).toEqual([
      'nodes[0].version: not a SemVer version',
      'nodes[1].payload: Invalid input: expected string, received undefined',
    ]);
  });

  it('reports edge indexes out of range once the schema holds', () => {
    const variant = JSON.parse(fixtureText('update-graphs/candidate-4.12-multi.json'));
    variant.edges.push([4, 5]);
    expect(() => graphFromCincinnati(JSON.stringify(variant), 'c.json')).toThrowError(
      'c.json: 1 problem(s): edges[10]: node index 5 out of range (5 nodes)',
    );
  });
});

describe('mergeGraphs', () => {
  it('unions stable-4.8 and stable-4.9: 145 releases, 4687 distinct edges', () => {
    // 101 + 90 releases, 46 of them (4.8.2 ... 4.8.54) in both with the same payload and channels.
    const merged = mergeGraphs([cincinnati('stable-4.8.json'), cincinnati('stable-4.9.json')]);
    expect(merged.source).toBe('stable-4.8.json + stable-4.9.json');
    expect(merged.nodes).toHaveLength(145);
    expect(merged.edges).toHaveLength(4687);
  });

  it('refuses two payloads for one version', () => {
    const a = cincinnati('candidate-4.12-multi.json');
    const b = { ...a, source: 'other', nodes: a.nodes.map((n) => ({ ...n, payload: `${n.payload}0` })) };
    expect(() => mergeGraphs([a, b])).toThrowError(/node 4\.12\.0-rc\.0: two different payloads/);
  });
});

describe('graphFromClusterVersion', () => {
  it('starts every edge at status.desired (4.14.1) during the paused-worker-pool update', () => {
    const cv = readClusterVersion(clusterState('4.14.1-paused-worker-pool').clusterVersion);
    const graph = graphFromClusterVersion(cv);
    expect(graph.source).toBe('ClusterVersion/version');
    expect(graph.nodes.map((n) => n.version)).toEqual([
      '4.14.1',
      '4.14.2',
      '4.14.3',
      '4.14.4',
      '4.14.5',
      '4.14.6',
      '4.14.7',
      '4.14.8',
      '4.14.9',
      '4.14.10',
      '4.14.11',
    ]);
    // 4.14.2 ... 4.14.9 are also conditional updates, but Recommended=True and listed in
    // availableUpdates: the CVO evaluated AROBrokenDNSMasq as not applying, so the edges are plain.
    expect(graph.edges.map((e) => `${e.from}->${e.to}:${e.risks.length}`)).toEqual(
      [
        '4.14.2',
        '4.14.3',
        '4.14.4',
        '4.14.5',
        '4.14.6',
        '4.14.7',
        '4.14.8',
        '4.14.9',
        '4.14.10',
        '4.14.11',
      ].map((v) => `4.14.1->${v}:0`),
    );
    expect(nodeOf(graph, '4.14.11')).toMatchObject({
      payload:
        'quay.io/openshift-release-dev/ocp-release@sha256:36783a8b066c96dd6258e818ce51b5a763438adbf56221ea5c4b62ae4f345886',
      channels: ['candidate-4.14', 'candidate-4.15'],
    });
    expect(nodeOf(graph, '4.14.1')!.channels).toEqual([
      'candidate-4.14',
      'candidate-4.15',
      'eus-4.14',
      'fast-4.14',
      'stable-4.14',
    ]);
  });

  it('keeps the risks of a conditional update that is not recommended', () => {
    // Derived variant: the CVO found AROBrokenDNSMasq applies to 4.14.9 (Recommended=False) and so
    // dropped 4.14.9 from availableUpdates.
    const raw = structuredClone(clusterState('4.14.1-paused-worker-pool').clusterVersion);
    raw.status.availableUpdates = raw.status.availableUpdates.filter(
      (u: { version: string }) => u.version !== '4.14.9',
    );
    raw.status.conditionalUpdates[0].conditions[0].status = 'False';
    const graph = graphFromClusterVersion(readClusterVersion(raw));
    expect(edgeOf(graph, '4.14.1', '4.14.9')?.risks.map((r) => [r.name, r.url])).toEqual([
      ['AROBrokenDNSMasq', 'https://issues.redhat.com/browse/MCO-958'],
    ]);
    expect(edgeOf(graph, '4.14.1', '4.14.8')?.risks).toEqual([]);
  });

  it('has no edges when the CVO lists no updates (degraded, not-upgrading)', () => {
    for (const scenario of ['4.14.1-degraded', 'not-upgrading'] as const) {
      const graph = graphFromClusterVersion(readClusterVersion(clusterState(scenario).clusterVersion));
      expect(graph.nodes.map((n) => n.version)).toEqual(['4.14.1']);
      expect(graph.edges).toEqual([]);
    }
  });
});
