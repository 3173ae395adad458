import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { failureLocation, yamlFailure } from '../core/parse-failure.js';
import { InvalidUpdateGraphError, formatIssues } from './errors.js';
import { type Risk, type UpdateGraph, nodeOf, updateGraph } from './graph.js';
import { isVersion } from './version.js';

/**
 * The openshift/cincinnati-graph-data files the update service builds its graph from:
 * `channels/<name>.yaml` (which releases a channel offers) and `blocked-edges/*.yaml` (edges to drop,
 * or, when the file names a risk, to turn into conditional edges).
 */

/** A `channels/<name>.yaml` file: the channel name and its releases, in file order. */
export interface ChannelFile {
  readonly name: string;
  readonly versions: readonly string[];
}

/**
 * A `blocked-edges/*.yaml` file. Without `name` the matching edges are dropped; with `name`, `url`,
 * `message` and `matchingRules` they become conditional on that risk.
 */
interface BlockedEdge {
  readonly to: string;
  /** Unanchored regular expression, matched against `<version>+<architecture>` (see `applyBlockedEdges`). */
  readonly from: string;
  readonly risk?: Risk;
  readonly fixedIn?: string;
}

const channelFile = z.object({
  name: z.string().min(1),
  versions: z.array(z.string().refine(isVersion, 'not a SemVer version')).nullish(),
});

const blockedEdge = z
  .object({
    to: z.string().refine(isVersion, 'not a SemVer version'),
    from: z.string().min(1),
    name: z.string().min(1).optional(),
    url: z.string().optional(),
    message: z.string().optional(),
    fixedIn: z.string().optional(),
    matchingRules: z.array(z.looseObject({ type: z.string() })).optional(),
  })
  .refine(
    (b) => !b.name || (b.url !== undefined && b.message !== undefined && b.matchingRules !== undefined),
    {
      message: 'a named risk needs url, message and matchingRules',
    },
  );

/** Parses a channel file; throws `InvalidUpdateGraph` naming `file`. */
export function parseChannelFile(content: string, file: string): ChannelFile {
  const data = validate(channelFile, content, file);
  return { name: data.name, versions: data.versions ?? [] };
}

/** Parses a blocked-edge file; throws `InvalidUpdateGraph` naming `file` (an invalid `from` regex included). */
export function parseBlockedEdge(content: string, file: string): BlockedEdge {
  const data = validate(blockedEdge, content, file);
  try {
    new RegExp(data.from);
  } catch (err) {
    throw new InvalidUpdateGraphError(file, [`from: not a regular expression: ${(err as Error).message}`]);
  }
  const risk = data.name
    ? {
        name: data.name,
        url: data.url ?? '',
        message: data.message ?? '',
        matchingRules: data.matchingRules ?? [],
      }
    : undefined;
  return {
    to: data.to,
    from: data.from,
    ...(risk ? { risk } : {}),
    ...(data.fixedIn ? { fixedIn: data.fixedIn } : {}),
  };
}

/**
 * Applies blocked edges as the update service does: for every edge into `to` whose source release
 * name matches `from`, drop the edge (no risk) or add the risk to it. Graph-data regexes are unanchored
 * and compared with the architecture-suffixed name (`4.13.17+amd64`), which is why the data writes
 * `4[.]13[.](17|18)[+].*`. The architecture is the node's `release.openshift.io/architecture`
 * metadata, else `options.architecture` (default `amd64`).
 */
export function applyBlockedEdges(
  graph: UpdateGraph,
  blocked: readonly BlockedEdge[],
  options: { architecture?: string } = {},
): UpdateGraph {
  const arch = (version: string) =>
    nodeOf(graph, version)?.metadata['release.openshift.io/architecture'] ?? options.architecture ?? 'amd64';
  const rules = blocked.map((b) => ({ ...b, regex: new RegExp(b.from) }));
  const edges = graph.edges.flatMap((edge) => {
    let risks = edge.risks;
    for (const b of rules) {
      if (b.to !== edge.to || !b.regex.test(`${edge.from}+${arch(edge.from)}`)) continue;
      if (!b.risk) return [];
      if (!risks.some((r) => r.name === b.risk!.name)) risks = [...risks, b.risk];
    }
    return [{ ...edge, risks }];
  });
  return updateGraph({ source: graph.source, nodes: graph.nodes, edges });
}

/** Adds each channel file's name to the channel list of the releases it lists (others are left alone). */
export function applyChannelFiles(graph: UpdateGraph, channels: readonly ChannelFile[]): UpdateGraph {
  const nodes = graph.nodes.map((node) => {
    const extra = channels.filter(
      (c) => c.versions.includes(node.version) && !node.channels.includes(c.name),
    );
    return extra.length === 0 ? node : { ...node, channels: [...node.channels, ...extra.map((c) => c.name)] };
  });
  return updateGraph({ source: graph.source, nodes, edges: graph.edges });
}

function validate<T extends z.ZodType>(schema: T, content: string, file: string): z.output<T> {
  let data: unknown;
  try {
    data = parseYaml(content);
  } catch (err) {
    // Where and why only: the parser's message carries a code frame of the file.
    const failure = yamlFailure(err);
    throw new InvalidUpdateGraphError(
      failureLocation(file, failure),
      [`not YAML: ${failure.reason}`],
      'fix the YAML syntax',
    );
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new InvalidUpdateGraphError(
      file,
      formatIssues(result.error.issues),
      'see the cincinnati-graph-data README',
    );
  }
  return result.data;
}
