// Real third-party sets, as a person at a terminal runs them (issue 14): wall clock of the whole
// command, process start included, Groundwork's CLI (the compiled build, as installed) against
// `kubectl apply --server-side` of the same file, first apply and a no-op, each on a fresh local
// control plane (the manifests hold cluster-scoped objects with fixed names). Median of 3.
// Usage: npm run bench -- real-sets
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { inNamespace } from './namespaced.js';
import { writePlatformFiles } from './platform-files.js';

const run = promisify(execFile);
const REPS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'groundwork.js');

/** The sets: a fixture file of real manifests (see test/fixtures/real-manifests/PROVENANCE.md). */
const SETS: { name: string; file: string; namespace?: string }[] = [
  { name: 'ingress-nginx v1.5.2', file: 'test/fixtures/real-manifests/ingress-nginx-v1.5.2.yaml' },
  {
    name: 'Argo CD v3.1.8',
    file: 'test/fixtures/real-manifests/argo-cd-v3.1.8-install.yaml',
    // install.yaml leaves the namespace to `kubectl apply -n argocd`: both tools get it written in.
    namespace: 'argocd',
  },
  {
    name: 'prometheus-operator v0.85.0',
    file: 'test/fixtures/real-manifests/prometheus-operator-v0.85.0-bundle.yaml',
  },
  {
    name: 'metrics-server v0.8.0',
    file: 'test/fixtures/real-manifests/metrics-server-v0.8.0-components.yaml',
  },
];

/** The set's file, with `namespace` written into its namespaced objects and the Namespace first. */
async function setFile(set: (typeof SETS)[number]): Promise<string> {
  const text = await readFile(join(root, set.file), 'utf8');
  const { namespace } = set;
  if (!namespace) return text;
  const docs = parseAllDocuments(text)
    .map((d) => d.toJS() as { kind?: string; metadata?: Record<string, unknown> } | null)
    .filter((d): d is { kind: string; metadata: Record<string, unknown> } => !!d?.kind);
  const all = inNamespace(docs, namespace);
  // JSON documents: read alike by YAML 1.1 (kubectl) and 1.2 readers (Argo CD's "no" stays a string).
  return all.map((d) => `---\n${JSON.stringify(d)}\n`).join('');
}

const PLATFORM = `import { Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    new Include(new Platform(scope, 'platform', { openshiftVersion: '4.16' }), 'set', { url: 'manifests/set.yaml' });
  },
});
`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchRealSets(): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-real-'));
  const rows: string[] = [];
  try {
    for (const set of SETS) {
      const repo = join(work, 'repo');
      await writePlatformFiles(repo, {
        name: 'real',
        platform: PLATFORM,
        files: { 'manifests/set.yaml': await setFile(set) },
      });
      const objects =
        (await run(process.execPath, [bin, 'synth', '--dir', repo], { maxBuffer: 1 << 28 })).stdout.split(
          /^---$/m,
        ).length - 1;
      const g1: number[] = [];
      const g2: number[] = [];
      const k1: number[] = [];
      const k2: number[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        for (const tool of ['kubectl', 'groundwork'] as const) {
          const cp = await LocalControlPlane.start();
          try {
            const env = {
              ...process.env,
              KUBECONFIG: cp.info.kubeconfig,
              GROUNDWORK_RUN_FROM: 'dist',
              CI: 'true',
            };
            const once = () =>
              tool === 'kubectl'
                ? run(
                    cp.info.binaries.kubectl!,
                    ['apply', '--server-side', '-f', join(repo, 'manifests', 'set.yaml')],
                    { env },
                  )
                : run(process.execPath, [bin, 'apply', '--dir', repo, '--no-wait'], {
                    env,
                    maxBuffer: 1 << 26,
                  });
            (tool === 'kubectl' ? k1 : g1).push(await timed(once));
            (tool === 'kubectl' ? k2 : g2).push(await timed(once));
          } finally {
            await cp.stop();
          }
        }
      }
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      rows.push(
        `### ${set.name}: ${objects} objects, wall clock with process start (median of ${REPS})`,
        '',
        '| measure | Groundwork CLI | kubectl --server-side | ratio |',
        '|---|---|---|---|',
        `| first apply | ${s(median(g1))} | ${s(median(k1))} | ${(median(g1) / median(k1)).toFixed(2)}× kubectl's time |`,
        `| no-op | ${s(median(g2))} | ${s(median(k2))} | ${(median(g2) / median(k2)).toFixed(2)}× kubectl's time |`,
        '',
        'Groundwork also synthesizes (in its child process), plans, and prints a health table; kubectl only sends the file.',
        '',
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return rows.join('\n');
}
