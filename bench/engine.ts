// Reconcile engine benchmark (issue 4), side by side in one run on one local control plane:
//   (a) first apply: Groundwork vs `kubectl apply --server-side` of the same files
//   (b) no-op reconcile: Groundwork vs kubectl's no-op
//   (c) the raw ceiling: a tight concurrent SSA PATCH loop
//   (d) Groundwork's peak RSS
// Usage: npm run bench -- engine [--sizes 1000,5000]
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeClient } from '../src/cluster/client.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { toYaml } from '../src/render/synth/canonical.js';
import { benchConfigMap } from './objects.js';

const run = promisify(execFile);
const REPS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchEngine(sizes: number[], reps = REPS): Promise<string> {
  const cp = await LocalControlPlane.start();
  const kubectl = cp.info.binaries.kubectl!;
  const env = { ...process.env, KUBECONFIG: cp.info.kubeconfig };
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, maxSockets: 32 });
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-'));
  const rows: string[] = [];
  try {
    for (const n of sizes) {
      // Each measurement three times, interleaved, in fresh namespaces; the median is reported
      // (a 2-core machine shares its cores between the apiserver, etcd and the client).
      const k1s: number[] = [];
      const raws: number[] = [];
      const gs: ChildResult[] = [];
      const k2s: number[] = [];
      for (let rep = 0; rep < reps; rep++) {
        for (const ns of [`kubectl-${n}-${rep}`, `gw-${n}-${rep}`, `raw-${n}-${rep}`])
          await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
        const kdir = await writeManifests(join(work, `kubectl-${n}-${rep}`), `kubectl-${n}-${rep}`, n);
        const gdir = await writeManifests(join(work, `gw-${n}-${rep}`), `gw-${n}-${rep}`, n);
        k1s.push(
          await timed(() =>
            run(kubectl, ['apply', '--server-side', '--field-manager=kubectl-bench', '-R', '-f', kdir], {
              env,
              maxBuffer: 1 << 28,
            }),
          ),
        );
        raws.push(await rawChild(cp.info.kubeconfig, `raw-${n}-${rep}`, n, 32));
        gs.push(await child(cp.info.kubeconfig, gdir, `bench-${n}-${rep}`));
        k2s.push(
          await timed(() =>
            run(kubectl, ['apply', '--server-side', '--field-manager=kubectl-bench', '-R', '-f', kdir], {
              env,
              maxBuffer: 1 << 28,
            }),
          ),
        );
      }
      const k1 = median(k1s);
      const raw = median(raws);
      const k2 = median(k2s);
      const g = gs.sort((a, b) => a.first.totalMs - b.first.totalMs)[Math.floor(gs.length / 2)]!;
      const g1 = { ...g.first, totalMs: median(gs.map((x) => x.first.totalMs)) };
      const g2 = {
        ...g.noop,
        totalMs: median(gs.map((x) => x.noop.totalMs)),
        writes: Math.max(...gs.map((x) => x.noop.writes)),
      };
      g.maxRssMb = Math.max(...gs.map((x) => x.maxRssMb));
      rows.push(
        `### ${n} ConfigMaps (median of ${reps} runs)`,
        '',
        '| measure | Groundwork | baseline | ratio | target |',
        '|---|---|---|---|---|',
        `| (a) first apply vs kubectl --server-side | ${s(g1.totalMs)} | ${s(k1)} | ${(k1 / g1.totalMs).toFixed(2)}× faster | ≥ 2.5× |`,
        `| (c) first apply vs a raw concurrent SSA loop in its own process (ceiling) | ${s(g1.totalMs)} | ${s(raw)} | ${((raw / g1.totalMs) * 100).toFixed(0)}% of ceiling | ≥ 80% |`,
        `| (b) no-op vs kubectl no-op | ${s(g2.totalMs)} | ${s(k2)} | ${((g2.totalMs / k2) * 100).toFixed(1)}% | ≤ 10% |`,
        `| (b) writes in the no-op | ${g2.writes} | | | 0 |`,
        `| (d) peak RSS of the Groundwork process | ${g.maxRssMb.toFixed(0)} MB | | | ≤ 250 MB |`,
        '',
        `Groundwork first apply: read files ${s(g1.readMs)}, plan ${s(g1.planMs)}, apply ${s(g1.applyMs)}, ${g1.counts.created} created${g1.error ? `, ERROR ${g1.error}` : ''}; requests ${JSON.stringify(g1.requests)}.`,
        `Groundwork no-op: read files ${s(g2.readMs)}, plan ${s(g2.planMs)}, ${g2.counts.unchanged} unchanged; requests ${JSON.stringify(g2.requests)}.`,
        '',
      );
    }
  } finally {
    client.close();
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
  return rows.join('\n');
}

export function writeManifests(dir: string, ns: string, n: number): Promise<string> {
  return writeObjects(
    dir,
    Array.from({ length: n }, (_, i) => benchConfigMap(ns, i)),
  );
}

/** Writes objects 100 to a file, as a synthesized platform directory would hold them. */
export async function writeObjects(dir: string, objects: readonly object[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (let f = 0; f * 100 < objects.length; f++) {
    const docs = objects.slice(f * 100, (f + 1) * 100).map((o) => `---\n${toYaml(o)}`);
    await writeFile(join(dir, `objects-${String(f).padStart(3, '0')}.yaml`), docs.join(''));
  }
  return dir;
}

async function rawChild(kubeconfig: string, ns: string, n: number, concurrency: number): Promise<number> {
  const script = new URL('./raw-child.js', import.meta.url).pathname;
  const { stdout } = await run(process.execPath, [script, kubeconfig, ns, String(n), String(concurrency)]);
  return Number(stdout);
}

interface Reconcile {
  totalMs: number;
  readMs: number;
  planMs: number;
  applyMs: number;
  counts: Record<string, number>;
  error?: string;
  requests: Record<string, number>;
  writes: number;
}
interface ChildResult {
  first: Reconcile;
  noop: Reconcile;
  maxRssMb: number;
}

async function child(kubeconfig: string, dir: string, overlay: string): Promise<ChildResult> {
  // The compiled child (npm run bench builds dist/ first): it measures the engine as the agent image runs it.
  const script = new URL('./engine-child.js', import.meta.url).pathname;
  const { stdout } = await run(process.execPath, [script, kubeconfig, dir, overlay], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout) as ChildResult;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
