import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { type ChannelFile, parseChannelFile } from '../../src/cluster-version/graph-data.js';
import { type UpdateGraph, graphFromCincinnati } from '../../src/cluster-version/graph.js';
import { meshGraph } from '../../src/dev/simulators/update-service.js';
import { fixturePath } from '../harness/fixtures.js';

/** A real-world fixture's text (never edited: tests derive variants from copies). */
export function fixtureText(path: string): string {
  return readFileSync(fixturePath(path), 'utf8');
}

const parsed = new Map<string, unknown>();

/** A parsed YAML fixture; each call returns a fresh copy, so tests may derive variants freely. */
export function fixtureYaml(path: string): Record<string, unknown> {
  if (!parsed.has(path)) parsed.set(path, parseYaml(fixtureText(path)));
  return structuredClone(parsed.get(path)) as Record<string, unknown>;
}

/** A Cincinnati graph from `update-graphs/`, named by its file name. */
export function cincinnati(
  file: 'stable-4.8.json' | 'stable-4.9.json' | 'candidate-4.12-multi.json',
): UpdateGraph {
  return graphFromCincinnati(fixtureText(`update-graphs/${file}`), file);
}

export function channelFile(name: string): ChannelFile {
  return parseChannelFile(fixtureText(`update-graphs/graph-data/${name}.yaml`), `${name}.yaml`);
}

export function graphDataText(file: string): string {
  return fixtureText(`update-graphs/graph-data/${file}`);
}

/** Fixture JSON that tests edit in place to derive variants (`cv.status.history[0].state = ...`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deliberately untyped: variants poke at arbitrary fields
export type FixtureObject = Record<string, any>;

/** ClusterVersion (unwrapped from its List when needed) and ClusterOperator list of a cluster-state scenario. */
export function clusterState(scenario: 'not-upgrading' | '4.14.1-paused-worker-pool' | '4.14.1-degraded') {
  const cv = fixtureYaml(`cluster-state/${scenario}/cv.yaml`);
  const clusterVersion = cv.kind === 'List' ? (cv.items as Record<string, unknown>[])[0]! : cv;
  const clusterOperators = fixtureYaml(`cluster-state/${scenario}/co.yaml`);
  return {
    clusterVersion: clusterVersion as FixtureObject,
    clusterOperators: clusterOperators as FixtureObject,
  };
}

/**
 * The product's graph of the simulated update service's mesh over channel files (see `meshGraph`):
 * the same Cincinnati response the CVO simulator serves, read by Groundwork's own parser.
 */
export function meshFromChannelFiles(files: readonly ChannelFile[]): UpdateGraph {
  return graphFromCincinnati(JSON.stringify(meshGraph(files)), files.map((f) => f.name).join('+'));
}

/** A path's steps without their images, for literal comparison. */
export function stepsOf(path: { ok: boolean; steps?: readonly { image?: string }[] }): unknown[] {
  return (path.steps ?? []).map(({ image: _image, ...rest }) => rest);
}
