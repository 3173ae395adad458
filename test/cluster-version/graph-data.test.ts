import { payloadOf } from '../../src/dev/simulators/update-service.js';
import { describe, expect, it } from 'vitest';
import {
  applyBlockedEdges,
  applyChannelFiles,
  parseBlockedEdge,
  parseChannelFile,
} from '../../src/cluster-version/graph-data.js';
import { edgeOf, nodeOf, updateGraph } from '../../src/cluster-version/graph.js';
import { planUpdatePath } from '../../src/cluster-version/path.js';
import { renderUpdatePath } from '../../src/cluster-version/path-render.js';
import { channelFile, graphDataText, meshFromChannelFiles, stepsOf } from './fixtures.js';

const blocked4110 = parseBlockedEdge(graphDataText('blocked-4.1.10.yaml'), 'blocked-4.1.10.yaml');
const blockedScc = parseBlockedEdge(
  graphDataText('blocked-4.14.0-ReconciledPlatformSCC.yaml'),
  'blocked-4.14.0-ReconciledPlatformSCC.yaml',
);
const blockedSa = parseBlockedEdge(
  graphDataText('blocked-4.16.0-ServiceAccountContentionSecretCreation.yaml'),
  'blocked-4.16.0-ServiceAccountContentionSecretCreation.yaml',
);

describe('channel files', () => {
  it('reads name and versions; stable-4.16 also lists 4.14.z, eus-4.16 goes further in every minor', () => {
    const stable416 = channelFile('stable-4.16');
    expect(stable416.name).toBe('stable-4.16');
    expect(stable416.versions).toHaveLength(161);
    expect([stable416.versions[0], stable416.versions.at(-1)]).toEqual(['4.14.0', '4.16.55']);
    const eus416 = channelFile('eus-4.16');
    expect([eus416.versions[0], eus416.versions.at(-1)]).toEqual(['4.14.0', '4.16.68']);
    // 4.14.58 is in stable-4.15 but not in stable-4.16: a 4.14.58 cluster cannot use stable-4.16.
    expect(channelFile('stable-4.15').versions).toContain('4.14.58');
    expect(stable416.versions).not.toContain('4.14.58');
  });

  it('rejects a file that is not a channel, naming it', () => {
    expect(() => parseChannelFile('name: x\nversions: [latest]\n', 'x.yaml')).toThrowError(
      'x.yaml: 1 problem(s): versions[0]: not a SemVer version',
    );
  });

  it('adds channel names to the releases a file lists', () => {
    const graph = updateGraph({
      source: 't',
      nodes: ['4.14.51', '4.14.58'].map((version) => ({ version, payload: '', channels: [], metadata: {} })),
      edges: [{ from: '4.14.51', to: '4.14.58', risks: [] }],
    });
    const withChannels = applyChannelFiles(graph, [channelFile('stable-4.15'), channelFile('stable-4.16')]);
    expect(nodeOf(withChannels, '4.14.51')!.channels).toEqual(['stable-4.15', 'stable-4.16']);
    expect(nodeOf(withChannels, '4.14.58')!.channels).toEqual(['stable-4.15']);
  });
});

describe('blocked edges', () => {
  it('reads plain blocks and named risks', () => {
    expect(blocked4110).toEqual({ to: '4.1.10', from: '.*' });
    expect(blockedScc).toEqual({
      to: '4.14.0',
      from: '4[.]13[.](17|18)[+].*',
      fixedIn: '4.14.1',
      risk: {
        name: 'ReconciledPlatformSCC',
        url: 'https://access.redhat.com/solutions/7033949',
        message:
          'User changes of platform SecurityContextConstraints (SCCs) would be removed in 4.14, we recommend to update from a more recent 4.13 version that contains appropriate warnings and gates.',
        matchingRules: [{ type: 'Always' }],
      },
    });
    expect(blockedSa.risk?.name).toBe('ServiceAccountContentionSecretCreation');
  });

  it('rejects a named risk without its details and a bad regex', () => {
    expect(() => parseBlockedEdge('to: 4.1.10\nfrom: .*\nname: Foo\n', 'b.yaml')).toThrowError(
      /a named risk needs url, message and matchingRules/,
    );
    expect(() => parseBlockedEdge('to: 4.1.10\nfrom: "4[.(1"\n', 'b.yaml')).toThrowError(
      /^b\.yaml: 1 problem\(s\): from: not a regular expression/,
    );
  });

  it('drops every edge into 4.1.10 for a block without a name', () => {
    // Derived graph: 4.1.9 -> 4.1.10 -> 4.1.11 and 4.1.9 -> 4.1.11.
    const graph = updateGraph({
      source: 'tiny',
      nodes: ['4.1.9', '4.1.10', '4.1.11'].map((version) => ({
        version,
        payload: '',
        channels: [],
        metadata: {},
      })),
      edges: [
        { from: '4.1.9', to: '4.1.10', risks: [] },
        { from: '4.1.10', to: '4.1.11', risks: [] },
        { from: '4.1.9', to: '4.1.11', risks: [] },
      ],
    });
    const result = applyBlockedEdges(graph, [blocked4110]);
    expect(result.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['4.1.9->4.1.11', '4.1.10->4.1.11']);
    expect(planUpdatePath(result, { from: '4.1.9', to: '4.1.10' })).toMatchObject({ reason: 'NoPath' });
    expect(stepsOf(planUpdatePath(result, { from: '4.1.9', to: '4.1.11' }))).toEqual([
      { from: '4.1.9', to: '4.1.11', kind: 'patch' },
    ]);
  });

  it('matches from-regexes against the architecture-suffixed name (4.13.17+amd64)', () => {
    // The regex needs the `+`: against a bare version it would never match.
    expect(new RegExp(blockedScc.from).test('4.13.17')).toBe(false);
    const graph = applyBlockedEdges(meshFromChannelFiles([channelFile('stable-4.14')]), [blockedScc]);
    expect(edgeOf(graph, '4.13.17', '4.14.0')!.risks.map((r) => r.name)).toEqual(['ReconciledPlatformSCC']);
    expect(edgeOf(graph, '4.13.18', '4.14.0')!.risks.map((r) => r.name)).toEqual(['ReconciledPlatformSCC']);
    expect(edgeOf(graph, '4.13.19', '4.14.0')!.risks).toEqual([]);
    expect(edgeOf(graph, '4.13.17', '4.14.1')!.risks).toEqual([]);
    // A multi-arch release is compared as 4.13.17+multi, which the regex still accepts.
    const multi = applyBlockedEdges(meshFromChannelFiles([channelFile('stable-4.14')]), [blockedScc], {
      architecture: 'multi',
    });
    expect(edgeOf(multi, '4.13.17', '4.14.0')!.risks).toHaveLength(1);
  });
});

describe('paths over graphs derived from the channel files (mesh: see meshFromChannelFiles)', () => {
  const mesh16 = meshFromChannelFiles([channelFile('stable-4.16'), channelFile('eus-4.16')]);

  it('plans the EUS-to-EUS control-plane-only update 4.14.0 -> 4.16.68 in eus-4.16', () => {
    // 4.14 -> 4.16 needs one 4.15 hop; the newest 4.15 in eus-4.16 is 4.15.67 (stable-4.16 stops at 4.15.59).
    const path = planUpdatePath(mesh16, {
      from: '4.14.0',
      to: '4.16.68',
      channel: 'eus-4.16',
      eusControlPlaneOnly: true,
    });
    expect(path).toEqual({
      ok: true,
      from: '4.14.0',
      to: '4.16.68',
      channel: 'eus-4.16',
      steps: [
        // The mesh's releases carry the simulated update service's made-up payloads.
        { from: '4.14.0', to: '4.15.67', kind: 'minor', image: payloadOf('4.15.67') },
        { from: '4.15.67', to: '4.16.68', kind: 'minor', image: payloadOf('4.16.68') },
      ],
      pausePools: { pools: 'non-master', pauseBeforeStep: 0, unpauseAfterStep: 1 },
    });
    expect(renderUpdatePath(path)).toBe(
      [
        'Update 4.14.0 -> 4.16.68 in 2 steps (channel eus-4.16):',
        '  1. 4.14.0 -> 4.15.67  minor',
        '  2. 4.15.67 -> 4.16.68  minor',
        'Control-plane-only EUS update: pause every non-master MachineConfigPool before step 1 and unpause them after step 2; the workers then update once, to 4.16.68.',
      ].join('\n'),
    );
  });

  it('keeps intermediate releases inside the channel: stable-4.16 passes through 4.15.59', () => {
    expect(
      stepsOf(planUpdatePath(mesh16, { from: '4.14.0', to: '4.16.55', channel: 'stable-4.16' })),
    ).toEqual([
      { from: '4.14.0', to: '4.15.59', kind: 'minor' },
      { from: '4.15.59', to: '4.16.55', kind: 'minor' },
    ]);
    // 4.16.68 is only in eus-4.16.
    expect(planUpdatePath(mesh16, { from: '4.14.0', to: '4.16.68', channel: 'stable-4.16' })).toMatchObject({
      reason: 'NotInChannel',
    });
    // stable-4.16 lists 4.14.z although its name only promises 4.15 and 4.16: the data wins.
    expect(
      stepsOf(planUpdatePath(mesh16, { from: '4.14.0', to: '4.14.51', channel: 'stable-4.16' })),
    ).toEqual([{ from: '4.14.0', to: '4.14.51', kind: 'patch' }]);
  });

  it('refuses the EUS option for odd or non-adjacent EUS minors', () => {
    expect(
      planUpdatePath(mesh16, { from: '4.15.0', to: '4.16.55', eusControlPlaneOnly: true }),
    ).toMatchObject({ reason: 'NotEusToEus' });
    expect(
      planUpdatePath(mesh16, { from: '4.14.0', to: '4.15.59', eusControlPlaneOnly: true }),
    ).toMatchObject({ reason: 'NotEusToEus' });
  });

  it('makes 4.15.z -> 4.16.0 conditional on ServiceAccountContentionSecretCreation', () => {
    const graph = applyBlockedEdges(mesh16, [blockedSa]);
    // Every edge into 4.16.0 starts in 4.15 (4.14 -> 4.16 would skip a minor), so all are conditional.
    expect(planUpdatePath(graph, { from: '4.15.0', to: '4.16.0', channel: 'stable-4.16' })).toMatchObject({
      ok: false,
      reason: 'RiskNotAccepted',
      risks: ['ServiceAccountContentionSecretCreation'],
    });
    const accepted = ['ServiceAccountContentionSecretCreation'];
    expect(
      stepsOf(
        planUpdatePath(graph, {
          from: '4.15.0',
          to: '4.16.0',
          channel: 'stable-4.16',
          acceptedRisks: accepted,
        }),
      ),
    ).toEqual([{ from: '4.15.0', to: '4.16.0', kind: 'minor', conditional: accepted }]);
    expect(
      stepsOf(
        planUpdatePath(graph, { from: '4.14.0', to: '4.16.0', channel: 'eus-4.16', acceptedRisks: accepted }),
      ),
    ).toEqual([
      { from: '4.14.0', to: '4.15.67', kind: 'minor' },
      { from: '4.15.67', to: '4.16.0', kind: 'minor', conditional: accepted },
    ]);
    // Edges out of 4.16.0 are untouched.
    expect(edgeOf(graph, '4.16.0', '4.16.1')!.risks).toEqual([]);
  });

  it('avoids the ReconciledPlatformSCC edge 4.13.17 -> 4.14.0 unless its risk is accepted', () => {
    const graph = applyBlockedEdges(meshFromChannelFiles([channelFile('stable-4.14')]), [blockedScc]);
    // Without the risk: 4.13.17 -> 4.13.61 (newest 4.13 in stable-4.14) -> 4.14.0.
    expect(stepsOf(planUpdatePath(graph, { from: '4.13.17', to: '4.14.0', channel: 'stable-4.14' }))).toEqual(
      [
        { from: '4.13.17', to: '4.13.61', kind: 'patch' },
        { from: '4.13.61', to: '4.14.0', kind: 'minor' },
      ],
    );
    // With it accepted, the single conditional step is shorter.
    expect(
      stepsOf(
        planUpdatePath(graph, {
          from: '4.13.17',
          to: '4.14.0',
          channel: 'stable-4.14',
          acceptedRisks: ['ReconciledPlatformSCC'],
        }),
      ),
    ).toEqual([{ from: '4.13.17', to: '4.14.0', kind: 'minor', conditional: ['ReconciledPlatformSCC'] }]);
    // 4.13.19 is not matched by (17|18): a plain step.
    expect(stepsOf(planUpdatePath(graph, { from: '4.13.19', to: '4.14.0' }))).toEqual([
      { from: '4.13.19', to: '4.14.0', kind: 'minor' },
    ]);
  });
});
