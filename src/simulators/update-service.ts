import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  applyBlockedEdges,
  parseBlockedEdge,
  parseChannelFile,
  type ChannelFile,
} from '../cluster-version/graph-data.js';
import {
  CHANNELS_METADATA,
  updateGraph,
  type ReleaseNode,
  type UpdateEdge,
  type UpdateGraph,
} from '../cluster-version/graph.js';
import { compareVersions, parseVersion } from '../cluster-version/version.js';

/**
 * A simulated update service's graph from cincinnati-graph-data channel files, which list releases
 * but no edges: every release updates to every newer release of its own minor and to every release
 * of the next minor (a "mesh"; the real graph is sparser). Each node's channels are the files that
 * list it. With `withPayloads`, each release gets a stable made-up payload pullspec
 * (`quay.io/openshift-release-dev/ocp-release@sha256:<sha256 of the version>`), as the CVO needs one.
 */
export function meshFromChannelFiles(
  files: readonly ChannelFile[],
  opts: { withPayloads?: boolean } = {},
): UpdateGraph {
  const versions = [...new Set(files.flatMap((f) => f.versions))].sort(compareVersions);
  const nodes: ReleaseNode[] = versions.map((version) => {
    const channels = files.filter((f) => f.versions.includes(version)).map((f) => f.name);
    return {
      version,
      payload: opts.withPayloads ? payloadOf(version) : '',
      channels,
      metadata: (opts.withPayloads ? { [CHANNELS_METADATA]: channels.join(',') } : {}) as Record<
        string,
        string
      >,
    };
  });
  const edges: UpdateEdge[] = [];
  for (const from of versions) {
    const a = parseVersion(from)!;
    for (const to of versions) {
      const b = parseVersion(to)!;
      const sameMinorNewer = b.minor === a.minor && compareVersions(to, from) > 0;
      if (sameMinorNewer || b.minor === a.minor + 1) edges.push({ from, to, risks: [] });
    }
  }
  return updateGraph({ source: files.map((f) => f.name).join('+'), nodes, edges });
}

/** The made-up payload pullspec of a simulated release. */
export function payloadOf(version: string): string {
  return `quay.io/openshift-release-dev/ocp-release@sha256:${createHash('sha256').update(version).digest('hex')}`;
}

/**
 * The simulated update service over a graph-data directory: every `stable-*`/`fast-*`/`eus-*`
 * channel file meshed, then every `blocked-*` file applied (blocks removed, risks made conditional).
 */
export async function updateServiceGraph(dir: string): Promise<UpdateGraph> {
  const names = (await readdir(dir)).sort();
  const channels: ChannelFile[] = [];
  const blocked = [];
  for (const name of names) {
    const text = await readFile(join(dir, name), 'utf8');
    if (name.startsWith('blocked-')) blocked.push(parseBlockedEdge(text, name));
    else if (name.endsWith('.yaml')) channels.push(parseChannelFile(text, name));
  }
  return applyBlockedEdges(meshFromChannelFiles(channels, { withPayloads: true }), blocked);
}
