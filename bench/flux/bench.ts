// Groundwork against a real Flux kustomize-controller (issue 11), side by side on one local control
// plane, interleaved, in fresh namespaces, median of REPS:
//   1. first sync: from a new revision to applied (Flux: GitRepository status written -> Kustomization
//      Ready at the revision; Groundwork: the engine's plan and apply in its own process);
//   2. a one-object change, the same way;
//   3. a no-op reconcile: wall time, CPU-seconds of the tool and of the apiserver, requests;
//   4. peak RSS of each tool.
// Usage: npm run bench -- flux [--sizes 1000,5000] [--mixed 150] [--reps 3] [--drift-interval 1m] [--flux-timeout 15m]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/cluster/client.js';
import { LocalControlPlane } from '../../src/controlplane/control-plane.js';
import type { K8sObject } from '../../src/core/object.js';
import { writeObjects } from '../engine.js';
import { benchApp, benchConfigMap, changeFirstConfigMap } from '../objects.js';
import { ensureFluxBuild, FLUX_VERSION } from './build.js';
import {
  ArtifactServer,
  createKustomization,
  kustomizationApplied,
  kustomizationSettled,
  patchKustomization,
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

/** What both tools apply: ConfigMaps at a size, or the mixed platform of `apps` applications. */
export interface Workload {
  label: string;
  key: string;
  objects(ns: string): object[];
}

export const configMaps = (n: number): Workload => ({
  label: `${n.toLocaleString('en')} ConfigMaps`,
  key: `cm${n}`,
  objects: (ns) => Array.from({ length: n }, (_, i) => benchConfigMap(ns, i)),
});

export const mixedPlatform = (apps: number): Workload => ({
  label: `a mixed platform: ${apps} applications, ${apps * 7} objects (ServiceAccount, Role, RoleBinding, ConfigMap, Secret, Deployment, Service each)`,
  key: `mixed${apps}`,
  objects: (ns) => Array.from({ length: apps }, (_, i) => benchApp(ns, i)).flat(),
});

/**
 * Flux's drift correction: with the Kustomization's interval set to `interval`, an out-of-band
 * edit of one managed ConfigMap, until kustomize-controller has put it back. Flux reports nothing
 * in between: the next interval's apply corrects it (and names it in its change-set event).
 */
async function fluxDrift(
  client: KubeClient,
  ns: string,
  objects: readonly { kind: string; metadata: { name: string } }[],
  interval: string,
): Promise<number> {
  await patchKustomization(client, ns, 'platform', { interval });
  await kustomizationSettled(client, ns, 'platform');
  const name = objects.find((o) => o.kind === 'ConfigMap')!.metadata.name;
  const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const before = await client.request<{ data: Record<string, string> }>('GET', path);
  const t = performance.now();
  await client.request('PATCH', path, {
    body: { data: Object.fromEntries(Object.keys(before.data).map((k) => [k, 'drifted'])) },
    contentType: 'application/merge-patch+json',
    query: { fieldManager: 'kubectl-edit' },
  });
  for (;;) {
    const now = await client.request<{ data: Record<string, string> }>('GET', path);
    if (JSON.stringify(now.data) === JSON.stringify(before.data)) return performance.now() - t;
    if (performance.now() - t > 1_800_000) throw new Error(`Flux did not correct ${ns}/${name}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function benchFlux(
  workloads: Workload[],
  opts: { reps?: number; driftInterval?: string; fluxTimeoutMs?: number } = {},
): Promise<string> {
  const reps = opts.reps ?? REPS;
  // Past this, Flux's first sync counts as not finished: the workload reports Groundwork alone.
  const fluxTimeoutMs = opts.fluxTimeoutMs ?? 900_000;
  const driftInterval = opts.driftInterval ?? '1m';
  const build = await ensureFluxBuild();
  const cp = await LocalControlPlane.start({ auditLog: true });
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, maxSockets: 32 });
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-flux-'));
  const artifacts = await ArtifactServer.start();
  let flux = await startKustomizeController(client, build, cp.info.kubeconfig, work);
  const apiserver = cp.info.pids.kubeApiserver;
  const log = cp.info.auditLog!;
  const rows: string[] = [];
  let fluxPeak = 0;
  let gwPeak = 0;
  try {
    for (const w of workloads) {
      const f = {
        first: [] as number[],
        change: [] as number[],
        noop: [] as number[],
        noopCpu: [] as number[],
        noopApi: [] as number[],
        noopReq: [] as number[],
        drift: [] as number[],
      };
      const g = {
        first: [] as number[],
        change: [] as number[],
        noop: [] as number[],
        noopCpu: [] as number[],
        noopApi: [] as number[],
        noopWrites: [] as number[],
      };
      /** Groundwork's engine on the same objects in a fresh namespace: first sync, no-op, change. */
      const groundwork = async (rep: number) => {
        const gns = `gw-${w.key}-${rep}`;
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: gns } } });
        const dir = await writeObjects(join(work, gns), w.objects(gns));
        const r = await groundworkChild(cp.info.kubeconfig, dir, `bench-${w.key}-${rep}`, apiserver);
        g.first.push(r.first.totalMs);
        g.noop.push(r.noop.totalMs);
        g.noopCpu.push(r.noop.cpuMs);
        g.noopApi.push(r.apiserverNoopCpuMs);
        g.noopWrites.push(r.noop.writes);
        if (r.change) g.change.push(r.change.totalMs);
        gwPeak = Math.max(gwPeak, r.maxRssMb);
      };
      let fluxUnfinished: number | undefined;
      for (let rep = 0; rep < reps; rep++) {
        // Flux.
        const fns = `flux-${w.key}-${rep}`;
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: fns } } });
        const objects = w.objects(fns) as K8sObject[];
        const a1 = artifacts.publish(fns, 'platform', objects, `${rep}${'1'.repeat(39)}`);
        let t = performance.now();
        await publishGitRepository(client, fns, 'platform', a1);
        await createKustomization(client, fns, 'platform', { interval: '60m' });
        const applied = await kustomizationApplied(client, fns, 'platform', a1.revision, fluxTimeoutMs).then(
          () => true,
          () => false,
        );
        if (!applied) {
          // Not finished: stop Flux's work on it (suspend, and a fresh controller so that the
          // reconcile in flight ends), then measure Groundwork alone on the same objects.
          fluxUnfinished = performance.now() - t;
          await patchKustomization(client, fns, 'platform', { suspend: true });
          fluxPeak = Math.max(fluxPeak, memoryMb(flux.process.pid).peak);
          await flux.stop();
          flux = await startKustomizeController(client, build, cp.info.kubeconfig, work);
          await groundwork(rep);
          break;
        }
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

        const changed = changeFirstConfigMap(objects, String(rep));
        const a2 = artifacts.publish(fns, 'platform', changed, `${rep}${'2'.repeat(39)}`);
        t = performance.now();
        await publishGitRepository(client, fns, 'platform', a2);
        await kustomizationApplied(client, fns, 'platform', a2.revision, 1_800_000);
        f.change.push(performance.now() - t);
        // Drift once per workload (it waits for Flux's interval).
        if (rep === 0) f.drift.push(await fluxDrift(client, fns, changed, driftInterval));
        // Done with this namespace: no reconcile of it may run during the next measurements.
        await patchKustomization(client, fns, 'platform', { suspend: true });
        fluxPeak = Math.max(fluxPeak, memoryMb(flux.process.pid).peak);

        await groundwork(rep);
      }
      const ratio = (gw: number[], fx: number[]) => `${(median(gw) / median(fx)).toFixed(2)}×`;
      const toolAndApi = (cpu: number[], api: number[]) => median(cpu.map((c, i) => c + api[i]!));
      if (fluxUnfinished !== undefined) {
        const min =
          fluxUnfinished >= 120_000 ? `${(fluxUnfinished / 60_000).toFixed(0)} min` : s(fluxUnfinished);
        rows.push(
          `### ${w.label} (one run: Flux did not finish its first sync within ${min})`,
          '',
          '| measure | Groundwork | Flux kustomize-controller | Groundwork / Flux | target |',
          '|---|---|---|---|---|',
          `| first sync (new revision to applied) | ${s(median(g.first))} | not finished after ${min} | < ${(median(g.first) / fluxUnfinished).toFixed(3)}× | ≤ 0.5× (5k, 20k) |`,
          `| one-object change | ${s(median(g.change))} | | | |`,
          `| no-op reconcile, wall | ${s(median(g.noop))} | | | |`,
          `| no-op CPU, tool + apiserver | ${s(toolAndApi(g.noopCpu, g.noopApi))} | | | |`,
          `| no-op CPU of the tool alone | ${s(median(g.noopCpu))} | | | |`,
          `| no-op writes (Groundwork) | ${Math.max(...g.noopWrites)} writes | | | 0 writes |`,
          `| Flux's first sync, stopped unfinished | | ${min} | | |`,
          '',
        );
        process.stderr.write(`${rows.slice(-12).join('\n')}\n`);
        continue;
      }
      rows.push(
        `### ${w.label} (median of ${reps}, interleaved, fresh namespaces)`,
        '',
        '| measure | Groundwork | Flux kustomize-controller | Groundwork / Flux | target |',
        '|---|---|---|---|---|',
        `| first sync (new revision to applied) | ${s(median(g.first))} | ${s(median(f.first))} | ${ratio(g.first, f.first)} | ≤ 0.5× (5k, 20k) |`,
        `| one-object change | ${s(median(g.change))} | ${s(median(f.change))} | ${ratio(g.change, f.change)} | |`,
        `| no-op reconcile, wall | ${s(median(g.noop))} | ${s(median(f.noop))} | ${ratio(g.noop, f.noop)} | |`,
        `| no-op CPU, tool + apiserver | ${s(toolAndApi(g.noopCpu, g.noopApi))} | ${s(toolAndApi(f.noopCpu, f.noopApi))} | ${(toolAndApi(g.noopCpu, g.noopApi) / toolAndApi(f.noopCpu, f.noopApi)).toFixed(2)}× | ≤ 0.10× |`,
        `| no-op CPU of the tool alone | ${s(median(g.noopCpu))} | ${s(median(f.noopCpu))} | ${ratio(g.noopCpu, f.noopCpu)} | |`,
        `| no-op writes (Groundwork) / dry-run and write requests (Flux, audit log) | ${Math.max(...g.noopWrites)} writes | ${median(f.noopReq)} requests | | 0 writes |`,
        `| out-of-band edit corrected (Flux: interval ${driftInterval}, one run) | see the agent benchmark | ${s(f.drift[0]!)} | | |`,
        '',
      );
      // Each workload's table as soon as it is measured: a long run keeps what it found.
      process.stderr.write(`${rows.slice(-12).join('\n')}\n`);
    }
    rows.push(
      `Peak RSS over the run: Groundwork's engine process ${gwPeak.toFixed(0)} MB, kustomize-controller ${FLUX_VERSION} ${fluxPeak.toFixed(0)} MB.`,
      '',
      "What each side does: Flux downloads the artifact (a tar.gz served on loopback, with the GitRepository status written as source-controller would: source-controller itself cannot be built here), verifies its digest, runs kustomize build, then a server-side dry-run and apply of every object; Groundwork's engine reads the synthesized files, plans against the live objects (one LIST per kind, dry-runs only for objects that differ) and applies with server-side apply. Neither side's git fetch is in the figures; Groundwork's synth is not either (bench synth measures it). Drift: Flux has no watch on what it applied, so an out-of-band edit stays until its next interval's apply; the Groundwork agent's drift watch reports and corrects it (bench agent measures it at the same sizes).",
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
