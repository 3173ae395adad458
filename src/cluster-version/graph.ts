import { z } from 'zod';
import { type ClusterVersionState, conditionOf } from './cluster-state.js';
import { InvalidUpdateGraphError, parseGraphJson } from './errors.js';
import { compareVersions, isVersion, sameImage } from './version.js';

/** Release metadata key listing the channels a release is in (comma-separated). */
const CHANNELS_METADATA = 'io.openshift.upgrades.graph.release.channels';

/** A known risk of a conditional update (Cincinnati `conditionalEdges[].risks[]`). */
export interface Risk {
  readonly name: string;
  readonly url: string;
  readonly message: string;
  readonly matchingRules: readonly { readonly type: string }[];
}

/** One release: version, payload pullspec and the channels it is published in. */
interface ReleaseNode {
  readonly version: string;
  readonly payload: string;
  /** Channels from release metadata; empty when unknown. */
  readonly channels: readonly string[];
  readonly metadata: Readonly<Record<string, string>>;
}

/** A recommended update. `risks` empty: unconditional; otherwise usable only with every risk accepted. */
export interface UpdateEdge {
  readonly from: string;
  readonly to: string;
  readonly risks: readonly Risk[];
}

/**
 * An update graph as plain data: nodes sorted by version, edges sorted by (from, to), each edge
 * listed once. `source` says where it came from (a file, `ClusterVersion/version`).
 */
export interface UpdateGraph {
  readonly source: string;
  readonly nodes: readonly ReleaseNode[];
  readonly edges: readonly UpdateEdge[];
}

/**
 * Builds a graph from nodes and edges: sorts, merges duplicate edges (risks are unioned by name, so
 * an edge that is conditional anywhere stays conditional) and checks that every edge joins two nodes.
 * Throws `InvalidUpdateGraph` naming `source` with every problem.
 */
export function updateGraph(input: {
  source: string;
  nodes: Iterable<ReleaseNode>;
  edges: Iterable<UpdateEdge>;
}): UpdateGraph {
  const problems: string[] = [];
  const nodes = new Map<string, ReleaseNode>();
  for (const node of input.nodes) {
    if (!isVersion(node.version)) problems.push(`node ${JSON.stringify(node.version)}: not a SemVer version`);
    else if (nodes.has(node.version)) problems.push(`node ${node.version}: listed twice`);
    else nodes.set(node.version, node);
  }
  const edges = new Map<string, UpdateEdge>();
  for (const edge of input.edges) {
    if (!nodes.has(edge.from) || !nodes.has(edge.to)) {
      problems.push(
        `edge ${edge.from} -> ${edge.to}: ${nodes.has(edge.from) ? edge.to : edge.from} is not a node`,
      );
      continue;
    }
    const key = `${edge.from} ${edge.to}`;
    const seen = edges.get(key);
    edges.set(key, seen ? { ...edge, risks: unionRisks(seen.risks, edge.risks) } : edge);
  }
  if (problems.length > 0) throw new InvalidUpdateGraphError(input.source, problems);
  return {
    source: input.source,
    nodes: [...nodes.values()].sort((a, b) => compareVersions(a.version, b.version)),
    edges: [...edges.values()].sort((a, b) => compareVersions(a.from, b.from) || compareVersions(a.to, b.to)),
  };
}

/**
 * Unions several graphs (e.g. the `stable-4.8` and `stable-4.9` responses) into one. A release in
 * several graphs must have the same payload digest; its channel lists are unioned.
 */
export function mergeGraphs(graphs: readonly UpdateGraph[]): UpdateGraph {
  const nodes = new Map<string, ReleaseNode>();
  const conflicts: string[] = [];
  for (const node of graphs.flatMap((g) => g.nodes)) {
    const seen = nodes.get(node.version);
    if (!seen) nodes.set(node.version, node);
    else if (!sameImage(seen.payload, node.payload))
      conflicts.push(`node ${node.version}: two different payloads`);
    else nodes.set(node.version, { ...seen, channels: [...new Set([...seen.channels, ...node.channels])] });
  }
  const source = graphs.map((g) => g.source).join(' + ');
  if (conflicts.length > 0) throw new InvalidUpdateGraphError(source, conflicts);
  return updateGraph({ source, nodes: nodes.values(), edges: graphs.flatMap((g) => g.edges) });
}

const indexes = new WeakMap<
  UpdateGraph,
  { nodes: Map<string, ReleaseNode>; out: Map<string, UpdateEdge[]> }
>();

function indexOf(graph: UpdateGraph) {
  let index = indexes.get(graph);
  if (!index) {
    const out = new Map<string, UpdateEdge[]>();
    for (const e of graph.edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);
    index = { nodes: new Map(graph.nodes.map((n) => [n.version, n])), out };
    indexes.set(graph, index);
  }
  return index;
}

export function nodeOf(graph: UpdateGraph, version: string): ReleaseNode | undefined {
  return indexOf(graph).nodes.get(version);
}

/** Edges leaving `version`, sorted by target version. */
export function edgesFrom(graph: UpdateGraph, version: string): readonly UpdateEdge[] {
  return indexOf(graph).out.get(version) ?? [];
}

export function edgeOf(graph: UpdateGraph, from: string, to: string): UpdateEdge | undefined {
  return edgesFrom(graph, from).find((e) => e.to === to);
}

const cincinnati = z.object({
  nodes: z.array(
    z.object({
      version: z.string().refine(isVersion, 'not a SemVer version'),
      payload: z.string().min(1),
      metadata: z.record(z.string(), z.string()).optional(),
    }),
  ),
  edges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  conditionalEdges: z
    .array(
      z.object({
        edges: z.array(z.object({ from: z.string(), to: z.string() })),
        risks: z
          .array(
            z.object({
              name: z.string().min(1),
              url: z.string(),
              message: z.string(),
              matchingRules: z.array(z.looseObject({ type: z.string() })),
            }),
          )
          .min(1),
      }),
    )
    .optional(),
});

/**
 * Parses a Cincinnati update-graph response (`{nodes, edges, conditionalEdges}`; edges are pairs
 * of node indexes, conditional edges name versions). Throws `InvalidUpdateGraph` naming `file` with
 * every problem (bad JSON, schema, index out of range, unknown version, duplicate node).
 *
 * @example
 * const graph = graphFromCincinnati(await readFile('stable-4.8.json', 'utf8'), 'stable-4.8.json');
 */
export function graphFromCincinnati(content: string, file: string): UpdateGraph {
  const { nodes, edges, conditionalEdges = [] } = parseGraphJson(content, file, cincinnati);
  const problems = edges.flatMap(([a, b], i) =>
    [a, b]
      .filter((x) => x >= nodes.length)
      .map((x) => `edges[${i}]: node index ${x} out of range (${nodes.length} nodes)`),
  );
  if (problems.length > 0) throw new InvalidUpdateGraphError(file, problems);
  return updateGraph({
    source: file,
    nodes: nodes.map((n) => ({
      version: n.version,
      payload: n.payload,
      channels: splitChannels(n.metadata?.[CHANNELS_METADATA]),
      metadata: n.metadata ?? {},
    })),
    edges: [
      ...edges.map(([a, b]) => ({ from: nodes[a]!.version, to: nodes[b]!.version, risks: [] })),
      ...conditionalEdges.flatMap((group) => group.edges.map((e) => ({ ...e, risks: group.risks }))),
    ],
  });
}

/**
 * The graph a live ClusterVersion knows: its `status.desired` release and the updates the CVO lists
 * for it. The CVO asks the update service for updates from `status.desired.version`, so every edge
 * starts there (during an update that is the target, not the last Completed version). An update in
 * `availableUpdates`, or a conditional update whose `Recommended` condition is `True` (its risks were
 * evaluated and do not apply to this cluster), is unconditional; the other conditional updates carry
 * their risks.
 */
export function graphFromClusterVersion(cv: ClusterVersionState): UpdateGraph {
  const status = cv.status;
  const source = `ClusterVersion/${cv.metadata.name}`;
  const from = status?.desired?.version ?? status?.history[0]?.version;
  if (!status || !from) return updateGraph({ source, nodes: [], edges: [] });
  const node = (r: { version: string; image?: string; channels: readonly string[] }): ReleaseNode => ({
    version: r.version,
    payload: r.image ?? '',
    channels: r.channels,
    metadata: {},
  });
  const desired = status.desired ?? { version: from, image: status.history[0]?.image, channels: [] };
  const recommended = new Set(status.availableUpdates.map((u) => u.version));
  const conditional = status.conditionalUpdates.filter(
    (u) =>
      !recommended.has(u.release.version) &&
      conditionOf(u.conditions ?? [], 'Recommended')?.status !== 'True',
  );
  const releases = [...status.availableUpdates, ...status.conditionalUpdates.map((u) => u.release)];
  const nodes = new Map([[from, node(desired)]]);
  for (const r of releases) if (!nodes.has(r.version)) nodes.set(r.version, node(r));
  return updateGraph({
    source,
    nodes: nodes.values(),
    edges: [
      ...[...nodes.keys()]
        .filter((v) => v !== from && !conditional.some((u) => u.release.version === v))
        .map((to) => ({ from, to, risks: [] })),
      ...conditional.map((u) => ({ from, to: u.release.version, risks: u.risks })),
    ],
  });
}

function splitChannels(value: string | undefined): string[] {
  return value
    ? value
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '')
    : [];
}

function unionRisks(a: readonly Risk[], b: readonly Risk[]): Risk[] {
  const byName = new Map(a.map((r) => [r.name, r]));
  for (const r of b) if (!byName.has(r.name)) byName.set(r.name, r);
  return [...byName.values()].sort((x, y) => x.name.localeCompare(y.name));
}
