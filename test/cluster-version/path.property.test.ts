import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type UpdateGraph, edgeOf, mergeGraphs, updateGraph } from '../../src/cluster-version/graph.js';
import { type UpdatePath, planUpdatePath } from '../../src/cluster-version/path.js';
import { compareVersions, parseVersion } from '../../src/cluster-version/version.js';
import { cincinnati } from './fixtures.js';

/**
 * Invariants of every returned path: it starts at `from` and ends at `to`, each step is an edge of
 * the graph whose risks were all accepted, steps move forward, and no step skips a minor.
 */
function checkPath(
  graph: UpdateGraph,
  from: string,
  to: string,
  accepted: readonly string[],
  path: UpdatePath,
): void {
  if (!path.ok) return;
  if (path.steps.length === 0) {
    expect(compareVersions(from, to)).toBe(0);
    return;
  }
  expect(path.steps[0]!.from).toBe(from);
  expect(path.steps.at(-1)!.to).toBe(to);
  path.steps.forEach((step, i) => {
    if (i > 0) expect(step.from).toBe(path.steps[i - 1]!.to);
    if (step.rollback) return;
    const edge = edgeOf(graph, step.from, step.to);
    expect(edge, `${step.from} -> ${step.to} is an edge`).toBeDefined();
    expect(edge!.risks.every((r) => accepted.includes(r.name))).toBe(true);
    expect(compareVersions(step.to, step.from)).toBeGreaterThan(0);
    const a = parseVersion(step.from)!;
    const b = parseVersion(step.to)!;
    expect(b.major).toBe(a.major);
    expect(b.minor - a.minor).toBeLessThanOrEqual(1);
    expect(step.kind).toBe(b.minor === a.minor ? 'patch' : 'minor');
  });
}

/** Fewest steps by breadth-first search over the same usable edges, to check optimality independently. */
function fewestSteps(
  graph: UpdateGraph,
  from: string,
  to: string,
  accepted: readonly string[],
): number | undefined {
  const usable = graph.edges.filter((e) => {
    const a = parseVersion(e.from)!;
    const b = parseVersion(e.to)!;
    const forward = compareVersions(e.to, e.from) > 0 && compareVersions(e.to, to) <= 0;
    return (
      forward &&
      a.major === b.major &&
      b.minor - a.minor <= 1 &&
      e.risks.every((r) => accepted.includes(r.name))
    );
  });
  const distance = new Map([[from, 0]]);
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const e of usable) {
      if (e.from === at && !distance.has(e.to)) {
        distance.set(e.to, distance.get(at)! + 1);
        queue.push(e.to);
      }
    }
  }
  return distance.get(to);
}

describe('planUpdatePath properties', () => {
  const fixtures = [
    cincinnati('stable-4.8.json'),
    cincinnati('stable-4.9.json'),
    cincinnati('candidate-4.12-multi.json'),
    mergeGraphs([cincinnati('stable-4.8.json'), cincinnati('stable-4.9.json')]),
  ];
  const channels = ['stable-4.8', 'eus-4.8', 'stable-4.9', 'eus-4.10', 'candidate-4.12', 'stable-4.7'];

  it('returns monotonic, minor-by-minor paths made of graph edges on the fixture graphs', () => {
    const input = fc.constantFrom(...fixtures).chain((graph) =>
      fc.record({
        graph: fc.constant(graph),
        from: fc.constantFrom(...graph.nodes.map((n) => n.version)),
        to: fc.constantFrom(...graph.nodes.map((n) => n.version)),
        channel: fc.option(fc.constantFrom(...channels), { nil: undefined }),
        accepted: fc.subarray(['VSphereNodeNameChanges', 'Other']),
      }),
    );
    fc.assert(
      fc.property(input, ({ graph, from, to, channel, accepted }) => {
        const path = planUpdatePath(graph, {
          from,
          to,
          acceptedRisks: accepted,
          ...(channel ? { channel } : {}),
        });
        checkPath(graph, from, to, accepted, path);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the invariants, and takes the fewest steps, on random graphs with bad edges', () => {
    const version = fc
      .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 }))
      .map(([m, p]) => `4.${m}.${p}`);
    const input = fc.uniqueArray(version, { minLength: 2, maxLength: 14 }).chain((versions) =>
      fc.record({
        versions: fc.constant(versions),
        // Any pair, including backwards and minor-skipping edges; some carry risk A or B.
        edges: fc.array(
          fc.record({
            from: fc.constantFrom(...versions),
            to: fc.constantFrom(...versions),
            risks: fc.subarray(['A', 'B']),
          }),
          { maxLength: 40 },
        ),
        from: fc.constantFrom(...versions),
        to: fc.constantFrom(...versions),
        accepted: fc.subarray(['A', 'B']),
      }),
    );
    fc.assert(
      fc.property(input, ({ versions, edges, from, to, accepted }) => {
        const graph = updateGraph({
          source: 'random',
          nodes: versions.map((v) => ({ version: v, payload: '', channels: [], metadata: {} })),
          edges: edges.map((e) => ({
            ...e,
            risks: e.risks.map((name) => ({ name, url: '', message: '', matchingRules: [] })),
          })),
        });
        const path = planUpdatePath(graph, { from, to, acceptedRisks: accepted });
        checkPath(graph, from, to, accepted, path);
        if (compareVersions(to, from) > 0) {
          const best = fewestSteps(graph, from, to, accepted);
          if (best === undefined) expect(path.ok).toBe(false);
          else expect(path.ok && path.steps.length).toBe(best);
        }
      }),
      { numRuns: 500 },
    );
  });
});
