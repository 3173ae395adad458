import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChannel, releaseInChannel } from '../../../src/cluster-version/channel.js';
import { readClusterVersion } from '../../../src/cluster-version/cluster-state.js';
import {
  edgesFrom,
  graphFromCincinnati,
  graphFromClusterVersion,
  nodeOf,
} from '../../../src/cluster-version/graph.js';
import { parseVersion } from '../../../src/cluster-version/version.js';
import { UpdateService, parseCincinnati } from '../../../src/dev/simulators/cincinnati.js';
import { retrieveUpdates } from '../../../src/dev/simulators/cvo-updates.js';

/**
 * The CVO simulator (written from the CVO's pkg/cincinnati and availableupdates.go) and Groundwork's
 * graph model must agree on generated Cincinnati responses: the updates the simulated CVO lists in
 * ClusterVersion status for a channel, read back through Groundwork's `graphFromClusterVersion`, are
 * the edges Groundwork reads from the same response (`graphFromCincinnati`) to releases in that
 * channel, with the risks that apply to the cluster (a conditional update none of whose risks apply
 * is recommended, so unconditional). Responses have any shape: unconditional and conditional edges
 * on the same pair, a pair in several conditional groups, releases in some channels only.
 */

const CHANNELS = ['stable-4.14', 'fast-4.14', 'candidate-4.14'];
const RISKS = ['RiskA', 'RiskB', 'RiskC'].map((name) => ({
  name,
  url: `https://example.invalid/${name}`,
  message: `${name} may break things.`,
  matchingRules: [{ type: 'Always' }],
}));

const version = (i: number) => `4.14.${i}`;

const responseArb = fc.integer({ min: 2, max: 7 }).chain((n) => {
  const pairs = Array.from({ length: n }, (_, a) => a).flatMap((a) =>
    Array.from({ length: n - a - 1 }, (_, k) => [a, a + k + 1] as const),
  );
  return fc.record({
    channels: fc.tuple(...Array.from({ length: n }, () => fc.subarray(CHANNELS, { minLength: 1 }))),
    edges: fc.subarray(pairs),
    groups: fc.array(
      fc.record({ edges: fc.subarray(pairs, { minLength: 1 }), risks: fc.subarray(RISKS, { minLength: 1 }) }),
      { maxLength: 3 },
    ),
    channel: fc.constantFrom(...CHANNELS),
    from: fc.integer({ min: 0, max: n - 1 }),
    applying: fc.subarray(RISKS.map((r) => r.name)),
  });
});

type Response = typeof responseArb extends fc.Arbitrary<infer T> ? T : never;

function cincinnatiJson(r: Response): string {
  return JSON.stringify({
    nodes: r.channels.map((channels, i) => ({
      version: version(i),
      payload: `quay.invalid/ocp-release@sha256:${String(i).padStart(64, '0')}`,
      metadata: { 'io.openshift.upgrades.graph.release.channels': channels.join(',') },
    })),
    edges: r.edges.map(([a, b]) => [a, b]),
    conditionalEdges: r.groups.map((g) => ({
      edges: g.edges.map(([a, b]) => ({ from: version(a), to: version(b) })),
      risks: g.risks,
    })),
  });
}

/** The ClusterVersion the simulated CVO would write for a cluster at `from` on `channel`. */
function simulatedClusterVersion(r: Response) {
  const from = version(r.from);
  const service = UpdateService.from(parseCincinnati(cincinnatiJson(r), 'graph.json'));
  const found = retrieveUpdates(service, r.channel, from, {
    riskApplies: (risk) => r.applying.includes(risk.name),
    previous: [],
    now: '2026-11-24T00:00:00Z',
  });
  const image = service.release(from)!.payload;
  const cv = readClusterVersion({
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { channel: r.channel },
    status: {
      desired: { version: from, image, channels: found.current?.channels ?? [] },
      history: [{ state: 'Completed', version: from, image, startedTime: null, completionTime: null }],
      availableUpdates: found.availableUpdates,
      conditionalUpdates: found.conditionalUpdates,
      conditions: [{ type: 'RetrievedUpdates', ...found.retrieved }],
    },
  });
  return { cv, found };
}

/** What Groundwork's own reading of the response expects the cluster to list. */
function expectedFromRepository(r: Response) {
  const graph = graphFromCincinnati(cincinnatiJson(r), 'graph.json');
  const channel = parseChannel(r.channel);
  const inChannel = (v: string) => releaseInChannel(nodeOf(graph, v)!, parseVersion(v)!, channel);
  const from = version(r.from);
  if (!inChannel(from)) return { known: false, edges: [] };
  const edges = edgesFrom(graph, from)
    .filter((e) => inChannel(e.to))
    .map((e) => {
      const risks = e.risks.map((k) => k.name).sort();
      return { to: e.to, risks: risks.some((k) => r.applying.includes(k)) ? risks : [] };
    });
  return { known: true, edges };
}

describe('the CVO simulator and Groundwork agree', () => {
  it('on the updates a cluster lists for its channel, and the risks that apply', () => {
    fc.assert(
      fc.property(responseArb, (r) => {
        const { cv, found } = simulatedClusterVersion(r);
        const expected = expectedFromRepository(r);
        expect(found.retrieved.status === 'True').toBe(expected.known);
        if (!expected.known) expect(found.retrieved.reason).toBe('VersionNotFound');
        const listed = edgesFrom(graphFromClusterVersion(cv), version(r.from)).map((e) => ({
          to: e.to,
          risks: e.risks.map((k) => k.name).sort(),
        }));
        expect(listed).toEqual(expected.edges);
      }),
      { numRuns: 500 },
    );
  });

  it('on which listed conditional updates are recommended', () => {
    fc.assert(
      fc.property(responseArb, (r) => {
        const { found } = simulatedClusterVersion(r);
        for (const u of found.conditionalUpdates) {
          const recommended = u.conditions.find((c) => c.type === 'Recommended')!;
          const applies = u.risks.some((k) => r.applying.includes(k.name));
          expect(recommended.status).toBe(applies ? 'False' : 'True');
          expect((found.availableUpdates ?? []).some((a) => a.version === u.release.version)).toBe(!applies);
        }
      }),
      { numRuns: 300 },
    );
  });
});
