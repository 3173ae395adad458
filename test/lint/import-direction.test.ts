import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, type ImportEdge } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layers of `src/`, in the order data flows (README "Architecture"). A module may import its
 * own layer's folder and any folder of an earlier layer, never a later one, nor another folder of
 * its own layer. Every import counts: `import type` too (a type shared both ways belongs in a small
 * module both sides import), and dynamic `import()`.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core'], // shared vocabulary: errors, object ids, revisions, names, redaction, the stage table, windows
  ['tools'], // helm, kustomize and sops: found or built from the Go module proxy
  ['project'], // groundwork.yaml and fleet.yaml, read and validated once into a typed project
  ['source'], // git (and the platform's npm dependencies) -> a verified revision and a tree
  ['render'], // a checkout -> objects: the sandbox, the platform code, helm, kustomize, recorded renders
  ['plan'], // desired + observed -> plan (pure)
  ['health'], // object -> verdict (pure); apply's waits ask it
  ['apply'], // plan -> cluster writes, waits, prune
  ['olm', 'cluster-version', 'machine-config', 'secrets'], // domains: constructs, checks, stage hooks, SOPS
  ['report'], // results -> status, drift report, preview, metrics
  ['fleet'], // environments, promotion gates
  ['propose'], // update proposals: pins, newer versions under a policy, edits in place, the forge
  ['cluster'], // the adapter: client, observer, server-side apply, stores
  ['reconcile'], // wires the domains into the pipeline: observe -> plan -> apply over a cluster session
  ['hub'], // the fleet hub: its API (CRDs, schemas, RBAC), controller, registration and the member's reporter
  ['ui'], // the read-only dashboard: pages over watch-fed caches (the CLI and the agent serve it)
  ['agent'], // the in-cluster loop, with its one options schema
  ['install'], // what bootstrap deploys: the agent's Deployment, RBAC, NetworkPolicy
  ['dev'], // test and demo machinery: the local control plane, the simulators, a git server
  ['cli'],
  ['index.ts'], // the public API of platform repositories
];

/** The layer folder of a file under `src/`: its top folder (no exceptions by path). */
function folderOf(file: string): string {
  return file.replace(/^src\//, '').split('/')[0]!;
}

/** Imports that run against `layers`: into a later layer, or into a sibling folder of the same one. */
function upwardImports(
  graph: ReadonlyMap<string, readonly ImportEdge[]>,
  layers: readonly (readonly string[])[],
): string[] {
  const rank = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const out: string[] = [];
  for (const edges of graph.values()) {
    for (const { from, to } of edges) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a === b) continue;
      const [ra, rb] = [rank.get(a), rank.get(b)];
      if (ra === undefined || rb === undefined || rb >= ra)
        out.push(`${from} -> ${to} (${a} may not import ${b})`);
    }
  }
  return out.sort();
}

describe('import direction and cycles of src/', () => {
  const graph = importGraph(ROOT);

  it('reads the whole of src/ (every file, and a known import)', () => {
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get('src/apply/apply.ts')?.map((e) => e.to)).toContain('src/core/stages.ts');
  });

  it('places every folder of src/ in a layer', () => {
    const known = new Set(LAYERS.flat());
    const folders = new Set([...graph.keys()].map(folderOf));
    expect([...folders].filter((f) => !known.has(f)).sort()).toEqual([]);
  });

  it('has no import cycle (type-only and dynamic imports included)', () => {
    expect(importCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('has no import that runs up the pipeline', () => {
    expect(upwardImports(graph, LAYERS)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const root = mkdtempSync(join(tmpdir(), 'groundwork-imports-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  );
  write('src/core/a.ts', "import type { B } from './b.js';\nexport type A = B | 1;\n");
  write('src/core/b.ts', "import type { A } from './a.js';\nexport type B = { a?: A };\n");
  write(
    'src/render/s.ts',
    "export const s = 1;\nexport async function later() { return import('../agent/x.js'); }\n",
  );
  write('src/render/t.ts', 'export const t = 1;\n');
  write('src/plan/p.ts', "import { t } from '../render/t.js';\nimport 'zod';\nexport const p = t;\n");
  write('src/agent/x.ts', "export * from '../plan/p.js';\n");
  const graph = importGraph(root);

  it('finds a cycle of type-only imports, with its path', () => {
    expect(importCycles(graph)).toEqual([['src/core/a.ts', 'src/core/b.ts', 'src/core/a.ts']]);
  });

  it('finds an upward import (here a dynamic one), and passes downward ones and packages', () => {
    expect(upwardImports(graph, LAYERS)).toEqual([
      'src/render/s.ts -> src/agent/x.ts (render may not import agent)',
    ]);
  });

  it('refuses imports between folders of one layer, and folders without a layer', () => {
    const edges = (from: string, to: string) => new Map([[from, [{ from, to }]]]);
    expect(upwardImports(edges('src/olm/a.ts', 'src/machine-config/b.ts'), LAYERS)).toHaveLength(1);
    expect(upwardImports(edges('src/agent/a.ts', 'src/newfolder/b.ts'), LAYERS)).toHaveLength(1);
    expect(upwardImports(edges('src/render/sandbox/a.ts', 'src/render/b.ts'), LAYERS)).toEqual([]);
  });
});
