// Catalogs and update graphs for the propose tests, derived from the fixtures (test/fixtures/
// PROVENANCE.md): the real kepler catalog with bundles added, the real stable-4.8 graph cut down.
import { readFileSync } from 'node:fs';
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
