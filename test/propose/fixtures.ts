// Catalogs and update graphs for the propose tests, derived from the fixtures (test/fixtures/
// PROVENANCE.md): the real kepler catalog with bundles added, the real stable-4.8 graph cut down.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCatalog, type Catalog } from '../../src/olm/catalog/index.js';
import type { NamedCatalog } from '../../src/olm/present-operator.js';
import { graphFromCincinnati, type UpdateGraph } from '../../src/cluster-version/graph.js';
import { fixturePath } from '../harness/fixtures.js';

export const KEPLER_FILE = fixturePath('catalogs/kepler-operator.yaml');
const HEAD_ENTRY = '- name: kepler-operator.v0.24.0\n  replaces: kepler-operator.v0.23.0\n';

/** A bundle blob of kepler-operator at `version`. */
export function keplerBundle(version: string): string {
  return `---\nschema: olm.bundle\nname: kepler-operator.v${version}\npackage: kepler-operator\nimage: registry.invalid/kepler-bundle:v${version}\nproperties:\n  - type: olm.package\n    value: { packageName: kepler-operator, version: ${version} }\n`;
}

/**
 * The text of the real kepler catalog with `entries` (YAML list items, as the alpha channel
 * writes them) appended to its alpha channel and a bundle for each of `versions`.
 */
export function keplerCatalogText(entries: string, versions: readonly string[]): string {
  const text = readFileSync(KEPLER_FILE, 'utf8');
  if (!text.includes(HEAD_ENTRY)) throw new Error('the kepler fixture changed');
  return text.replace(HEAD_ENTRY, `${HEAD_ENTRY}${entries}`) + versions.map(keplerBundle).join('');
}

export function keplerCatalog(entries = '', versions: readonly string[] = []): NamedCatalog {
  const name = 'catalogs/kepler-operator.yaml';
  return { name, catalog: parseCatalog([{ path: name, text: keplerCatalogText(entries, versions) }]) };
}

/** The dependencies fixture, its etcd-app.v1.1.0 requirement changed by `edit`. */
export function dependenciesCatalog(edit: (text: string) => string = (t) => t): NamedCatalog {
  const name = 'catalogs/dependencies.yaml';
  const catalog: Catalog = parseCatalog([
    { path: name, text: edit(readFileSync(fixturePath('catalogs/dependencies.yaml'), 'utf8')) },
  ]);
  return { name, catalog };
}

const STABLE_48 = JSON.parse(readFileSync(fixturePath('update-graphs/stable-4.8.json'), 'utf8')) as {
  nodes: { version: string }[];
  edges: [number, number][];
  conditionalEdges?: { edges: { from: string; to: string }[]; risks: unknown[] }[];
};

/** The real stable-4.8 graph. */
export function stable48(): UpdateGraph {
  return graphFromCincinnati(JSON.stringify(STABLE_48), 'stable-4.8.json');
}

/**
 * The stable-4.8 graph cut down to `versions` and the edges (conditional ones too) between them;
 * `drop` removes edges `from->to`.
 */
export function stable48Subgraph(versions: readonly string[], drop: readonly string[] = []): UpdateGraph {
  const keep = new Set(versions);
  const nodes = STABLE_48.nodes.filter((n) => keep.has(n.version));
  const index = new Map(nodes.map((n, i) => [n.version, i]));
  const kept = (from: string, to: string) =>
    keep.has(from) && keep.has(to) && !drop.includes(`${from}->${to}`);
  const edges = STABLE_48.edges
    .map(([a, b]) => [STABLE_48.nodes[a]!.version, STABLE_48.nodes[b]!.version] as const)
    .filter(([a, b]) => kept(a, b))
    .map(([a, b]) => [index.get(a)!, index.get(b)!]);
  const conditionalEdges = (STABLE_48.conditionalEdges ?? [])
    .map((c) => ({ ...c, edges: c.edges.filter((e) => kept(e.from, e.to)) }))
    .filter((c) => c.edges.length > 0);
  return graphFromCincinnati(JSON.stringify({ nodes, edges, conditionalEdges }), 'stable-4.8 (cut)');
}

/** The sha256 of `bytes`, in hex (chart lock digests). */
export const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A Cincinnati response for the propose tests: three 4.16 releases of the stable-4.16 channel,
 * 4.16.20 -> 4.16.21 recommended, -> 4.16.23 only over a conditional edge with a risk.
 */
export function stable416Graph(): string {
  const node = (version: string) => ({
    version,
    payload: `quay.io/openshift-release-dev/ocp-release@sha256:${sha(Buffer.from(version))}`,
    metadata: { 'io.openshift.upgrades.graph.release.channels': 'candidate-4.16,fast-4.16,stable-4.16' },
  });
  return JSON.stringify({
    nodes: [node('4.16.20'), node('4.16.21'), node('4.16.23')],
    edges: [[0, 1]],
    conditionalEdges: [
      {
        edges: [{ from: '4.16.20', to: '4.16.23' }],
        risks: [
          {
            url: 'https://issues.redhat.com/browse/OCPBUGS-0000',
            name: 'TestOnlyRisk',
            message: 'Clusters on this test platform may lose their test.',
            matchingRules: [{ type: 'Always' }],
          },
        ],
      },
    ],
  });
}

/** A real chart archive podinfo-<version>.tgz: one ConfigMap naming the version. */
export function podinfoArchive(dir: string, version: string): Buffer {
  const src = join(dir, `chart-${version}`, 'podinfo');
  mkdirSync(join(src, 'templates'), { recursive: true });
  writeFileSync(join(src, 'Chart.yaml'), `apiVersion: v2\nname: podinfo\nversion: ${version}\n`);
  writeFileSync(
    join(src, 'templates', 'version.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: podinfo-version\ndata:\n  version: "{{ .Chart.Version }}"\n',
  );
  const out = join(dir, `podinfo-${version}.tgz`);
  execFileSync('tar', ['-czf', out, '-C', join(dir, `chart-${version}`), 'podinfo']);
  return readFileSync(out);
}
