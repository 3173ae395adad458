import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { parse as parseYaml } from 'yaml';
import {
  CHANNELS_KEY,
  CincinnatiResponseInvalidError,
  compareReleases,
  type CincinnatiGraph,
  type CincinnatiRisk,
} from './cincinnati.js';

/**
 * The simulated update service's graph from openshift/cincinnati-graph-data: `channels/*.yaml`
 * (`name`, `versions`) list releases but no edges, `blocked-edges/*.yaml` (`to`, `from` regex,
 * optional `name`/`url`/`message`/`matchingRules`) remove edges or make them conditional. Read
 * here with the simulator's own parsing.
 */

/** A channel file: its name and releases. */
interface GraphDataChannel {
  readonly name: string;
  readonly versions: readonly string[];
}

/** A blocked-edges file: edges into `to` from releases matching `from`; `risk` makes them conditional. */
interface GraphDataBlock {
  readonly to: string;
  readonly from: RegExp;
  readonly risk: CincinnatiRisk | undefined;
}

/** The made-up payload pullspec of a simulated release. */
export function payloadOf(version: string): string {
  return `quay.io/openshift-release-dev/ocp-release@sha256:${createHash('sha256').update(version).digest('hex')}`;
}

/**
 * A Cincinnati response for channel files, which list releases but no edges: every release
 * updates to every newer release of its own minor and to every release of the next minor (a
 * "mesh"; the real graph is sparser). Each node carries the channels whose files list it and a
 * stable made-up payload (`payloadOf`).
 */
export function meshGraph(channels: readonly GraphDataChannel[]): CincinnatiGraph {
  const versions = [...new Set(channels.flatMap((c) => c.versions))].sort(compareReleases);
  const nodes = versions.map((version) => ({
    version,
    payload: payloadOf(version),
    metadata: {
      [CHANNELS_KEY]: channels
        .filter((c) => c.versions.includes(version))
        .map((c) => c.name)
        .join(','),
    },
  }));
  const edges: [number, number][] = [];
  versions.forEach((from, i) => {
    const a = semver.parse(from);
    versions.forEach((to, j) => {
      const b = semver.parse(to);
      if (!a || !b || a.major !== b.major) return;
      if ((b.minor === a.minor && j > i) || b.minor === a.minor + 1) edges.push([i, j]);
    });
  });
  return { nodes, edges, conditionalEdges: [] };
}

/**
 * Applies blocked edges as the update service builds its graph: an edge into `to` whose source,
 * written `<version>+<arch>` (the graph-data regexes expect the architecture suffix, e.g.
 * `4[.]13[.]17[+].*`), matches `from` is dropped when the block names no risk, else moved to the
 * conditional edges with that risk.
 */
function withBlocks(
  graph: CincinnatiGraph,
  blocks: readonly GraphDataBlock[],
  arch = 'amd64',
): CincinnatiGraph {
  const edges: [number, number][] = [];
  const conditional = new Map<string, { from: string; to: string; risks: CincinnatiRisk[] }>();
  for (const [a, b] of graph.edges) {
    const from = graph.nodes[a]!.version;
    const to = graph.nodes[b]!.version;
    const hits = blocks.filter((x) => x.to === to && x.from.test(`${from}+${arch}`));
    if (hits.length === 0) edges.push([a, b]);
    else if (hits.every((h) => h.risk)) {
      conditional.set(`${from}>${to}`, { from, to, risks: hits.map((h) => h.risk!) });
    }
  }
  const groups = [...conditional.values()].map((c) => ({
    edges: [{ from: c.from, to: c.to }],
    risks: c.risks,
  }));
  return { nodes: graph.nodes, edges, conditionalEdges: [...(graph.conditionalEdges ?? []), ...groups] };
}

/** Reads a channel file. @throws CincinnatiResponseInvalidError naming the file. */
function readChannelFile(text: string, file: string): GraphDataChannel {
  const data = yamlObject(text, file);
  if (typeof data.name !== 'string' || !data.name)
    throw new CincinnatiResponseInvalidError(file, ['name: required']);
  const versions = data.versions ?? [];
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string' && semver.valid(v))) {
    throw new CincinnatiResponseInvalidError(file, ['versions: must be a list of semantic versions']);
  }
  return { name: data.name, versions: versions as string[] };
}

/** Reads a blocked-edges file. @throws CincinnatiResponseInvalidError naming the file. */
function readBlockFile(text: string, file: string): GraphDataBlock {
  const data = yamlObject(text, file);
  if (typeof data.to !== 'string' || typeof data.from !== 'string') {
    throw new CincinnatiResponseInvalidError(file, ['to and from: required strings']);
  }
  let from: RegExp;
  try {
    from = new RegExp(data.from);
  } catch (err) {
    throw new CincinnatiResponseInvalidError(file, [`from: ${(err as Error).message}`]);
  }
  const risk =
    typeof data.name === 'string' && data.name
      ? {
          name: data.name,
          url: typeof data.url === 'string' ? data.url : '',
          message: typeof data.message === 'string' ? data.message : '',
          matchingRules: Array.isArray(data.matchingRules)
            ? (data.matchingRules as { type: string }[])
            : [{ type: 'Always' }],
        }
      : undefined;
  return { to: data.to, from, risk };
}

function yamlObject(text: string, file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new CincinnatiResponseInvalidError(file, [`not YAML: ${(err as Error).message}`]);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CincinnatiResponseInvalidError(file, ['not a YAML mapping']);
  }
  return data as Record<string, unknown>;
}

/**
 * The simulated update service over a graph-data directory: every `*.yaml` channel file meshed,
 * then every `blocked-*` file applied.
 */
export async function updateServiceGraph(dir: string): Promise<CincinnatiGraph> {
  const channels: GraphDataChannel[] = [];
  const blocks: GraphDataBlock[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    if (name.startsWith('blocked-')) blocks.push(readBlockFile(text, name));
    else if (name.endsWith('.yaml')) channels.push(readChannelFile(text, name));
  }
  return withBlocks(meshGraph(channels), blocks);
}
