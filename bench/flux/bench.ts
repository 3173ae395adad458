// Groundwork against a real Flux kustomize-controller (issue 11), side by side on one local control
// plane, interleaved, in fresh namespaces, median of REPS:
//   1. first sync: from a new revision to applied (Flux: GitRepository status written -> Kustomization
//      Ready at the revision; Groundwork: the engine's plan and apply in its own process);
//   2. a one-object change, the same way;
//   3. a no-op reconcile: wall time, CPU-seconds of the tool and of the apiserver, requests;
//   4. peak RSS of each tool.
// Usage: npm run bench -- flux [--sizes 1000,5000]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/cluster/client.js';
import { LocalControlPlane } from '../../src/controlplane/control-plane.js';
import { writeManifests } from '../engine.js';
import { benchConfigMap } from '../objects.js';
import { ensureFluxBuild, FLUX_VERSION } from './build.js';
import {
  ArtifactServer,
  createKustomization,
  kustomizationApplied,
  publishGitRepository,
  startKustomizeController,
} from './flux.js';

const REPS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** utime + stime of a process, in milliseconds (Linux /proc). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Audit-log lines since `offset` whose user agent starts with `agent`. */
function requestsSince(
  log: string,
  offset: number,
  agent: string,
): { total: number; writes: number; lists: number } {
  const lines = readFileSync(log, 'utf8').slice(offset).split('\n').filter(Boolean);
  let total = 0;
  let writes = 0;
  let lists = 0;
  for (const line of lines) {
    const e = JSON.parse(line) as { userAgent?: string; verb?: string; stage?: string };
    if (e.stage !== 'ResponseComplete' || !e.userAgent?.startsWith(agent)) continue;
    total++;
    if (e.verb === 'list') lists++;
    if (!['get', 'list', 'watch'].includes(e.verb ?? '')) writes++;
  }
  return { total, writes, lists };
}

interface GroundworkRun {
  first: { totalMs: number };
  noop: { totalMs: number; cpuMs: number; writes: number };
  change?: { totalMs: number };
  maxRssMb: number;
  apiserverNoopCpuMs: number;
}

/** The engine in its own process (as the agent runs it); samples the apiserver's CPU around the no-op. */
function groundworkChild(
  kubeconfig: string,
  dir: string,
  overlay: string,
  apiserverPid: number,
): Promise<GroundworkRun> {
  return new Promise((resolve, reject) => {
    const script = new URL('../engine-child.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [script, kubeconfig, dir, overlay, '--change'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let started = 0;
    let apiserverNoopCpuMs = 0;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (line === 'noop-start') started = cpuMs(apiserverPid);
        if (line === 'noop-end') apiserverNoopCpuMs = cpuMs(apiserverPid) - started;
      }
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ ...(JSON.parse(out) as Omit<GroundworkRun, 'apiserverNoopCpuMs'>), apiserverNoopCpuMs })
        : reject(new Error(`engine child exited ${code}`)),
    );
  });
}

export async function benchFlux(sizes: number[]): Promise<string> {
  const build = await ensureFluxBuild();
  const cp = await LocalControlPlane.start({ auditLog: true });
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, maxSockets: 32 });
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-flux-'));
  const artifacts = await ArtifactServer.start();
  const flux = await startKustomizeController(client, build, cp.info.kubeconfig, work);
  const apiserver = cp.info.pids.kubeApiserver;
  const log = cp.info.auditLog!;
  const rows: string[] = [];
  let fluxPeak = 0;
  let gwPeak = 0;
  try {
    for (const n of sizes) {
      const f = {
        first: [] as number[],
        change: [] as number[],
        noop: [] as number[],
        noopCpu: [] as number[],
        noopApi: [] as number[],
        noopReq: [] as number[],
      };
      const g = {
        first: [] as number[],
        change: [] as number[],
        noop: [] as number[],
        noopCpu: [] as number[],
        noopApi: [] as number[],
        noopWrites: [] as number[],
      };
      for (let rep = 0; rep < REPS; rep++) {
        // Flux.
        const fns = `flux-${n}-${rep}`;
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: fns } } });
        const objects = Array.from({ length: n }, (_, i) => benchConfigMap(fns, i));
        const a1 = artifacts.publish(fns, 'platform', objects, `${rep}${'1'.repeat(39)}`);
        let t = performance.now();
        await publishGitRepository(client, fns, 'platform', a1);
        await createKustomization(client, fns, 'platform', { interval: '60m' });
        await kustomizationApplied(client, fns, 'platform', a1.revision);
        f.first.push(performance.now() - t);

        const before = {
          flux: cpuMs(flux.process.pid),
          api: cpuMs(apiserver),
          at: readFileSync(log, 'utf8').length,
        };
        const requestedAt = new Date().toISOString();
        t = performance.now();
        await client.request(
          'PATCH',
          `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${fns}/kustomizations/platform`,
          {
            body: { metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': requestedAt } } },
            contentType: 'application/merge-patch+json',
          },
        );
        for (;;) {
          const k = await client.request<{ status?: { lastHandledReconcileAt?: string } }>(
            'GET',
            `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${fns}/kustomizations/platform`,
          );
          if (k.status?.lastHandledReconcileAt === requestedAt) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        f.noop.push(performance.now() - t);
        f.noopCpu.push(cpuMs(flux.process.pid) - before.flux);
        f.noopApi.push(cpuMs(apiserver) - before.api);
        f.noopReq.push(requestsSince(log, before.at, 'kustomize-controller').total);

        const changed = objects.map((o, i) => (i === 0 ? { ...o, data: { changed: String(rep) } } : o));
        const a2 = artifacts.publish(fns, 'platform', changed, `${rep}${'2'.repeat(39)}`);
        t = performance.now();
        await publishGitRepository(client, fns, 'platform', a2);
        await kustomizationApplied(client, fns, 'platform', a2.revision);
        f.change.push(performance.now() - t);
        fluxPeak = Math.max(fluxPeak, memoryMb(flux.process.pid).peak);

        // Groundwork.
        const gns = `gw-${n}-${rep}`;
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: gns } } });
        const dir = await writeManifests(join(work, gns), gns, n);
        const r = await groundworkChild(cp.info.kubeconfig, dir, `bench-${n}-${rep}`, apiserver);
        g.first.push(r.first.totalMs);
        g.noop.push(r.noop.totalMs);
        g.noopCpu.push(r.noop.cpuMs);
        g.noopApi.push(r.apiserverNoopCpuMs);
        g.noopWrites.push(r.noop.writes);
        if (r.change) g.change.push(r.change.totalMs);
        gwPeak = Math.max(gwPeak, r.maxRssMb);
      }
      const ratio = (gw: number[], fx: number[]) => `${(median(gw) / median(fx)).toFixed(2)}×`;
      const toolAndApi = (cpu: number[], api: number[]) => median(cpu.map((c, i) => c + api[i]!));
      rows.push(
        `### ${n} ConfigMaps (median of ${REPS}, interleaved, fresh namespaces)`,
        '',
        '| measure | Groundwork | Flux kustomize-controller | Groundwork / Flux | target |',
        '|---|---|---|---|---|',
        `| first sync (new revision to applied) | ${s(median(g.first))} | ${s(median(f.first))} | ${ratio(g.first, f.first)} | ≤ 0.5× (5k, 20k) |`,
        `| one-object change | ${s(median(g.change))} | ${s(median(f.change))} | ${ratio(g.change, f.change)} | |`,
        `| no-op reconcile, wall | ${s(median(g.noop))} | ${s(median(f.noop))} | ${ratio(g.noop, f.noop)} | |`,
        `| no-op CPU, tool + apiserver | ${s(toolAndApi(g.noopCpu, g.noopApi))} | ${s(toolAndApi(f.noopCpu, f.noopApi))} | ${(toolAndApi(g.noopCpu, g.noopApi) / toolAndApi(f.noopCpu, f.noopApi)).toFixed(2)}× | ≤ 0.10× |`,
        `| no-op CPU of the tool alone | ${s(median(g.noopCpu))} | ${s(median(f.noopCpu))} | ${ratio(g.noopCpu, f.noopCpu)} | |`,
        `| no-op writes (Groundwork) / dry-run and write requests (Flux, audit log) | ${Math.max(...g.noopWrites)} writes | ${median(f.noopReq)} requests | | 0 writes |`,
        '',
      );
    }
    rows.push(
      `Peak RSS over the run: Groundwork's engine process ${gwPeak.toFixed(0)} MB, kustomize-controller ${FLUX_VERSION} ${fluxPeak.toFixed(0)} MB.`,
      '',
      "What each side does: Flux downloads the artifact (a tar.gz served on loopback, with the GitRepository status written as source-controller would: source-controller itself cannot be built here), verifies its digest, runs kustomize build, then a server-side dry-run and apply of every object; Groundwork's engine reads the synthesized files, plans against the live objects (one LIST per kind, dry-runs only for objects that differ) and applies with server-side apply. Neither side's git fetch is in the figures; Groundwork's synth is not either (bench synth measures it).",
      '',
    );
  } finally {
    await flux.stop();
    await artifacts.stop();
    client.close();
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
  return rows.join('\n');
}
