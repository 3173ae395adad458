// Groundwork against a real Flux kustomize-controller (issue 11), side by side on one local control
// plane, interleaved, in fresh namespaces, median of REPS; Flux twice, with its defaults and with
// its client limits raised (configs.ts), each configuration in its own controller process:
//   1. first sync: from a new revision to applied (Flux: GitRepository status written -> Kustomization
//      Ready at the revision; Groundwork: the engine's plan and apply in its own process);
//   2. a one-object change, the same way;
//   3. a no-op reconcile: wall time, CPU-seconds of the tool and of the apiserver, requests;
//   4. peak RSS of each tool.
// Usage: npm run bench -- flux [--sizes 1000,5000] [--mixed 150] [--reps 3] [--drift-interval 1m] [--flux-timeout 15m]
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../../src/cluster/client.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import type { K8sObject } from '../../src/core/object.js';
import { writeObjects } from '../engine.js';
import { benchApp, benchConfigMap } from '../objects.js';
import { ensureFluxBuild, FLUX_VERSION } from './build.js';
import { FLUX_CONFIGS, type FluxConfig } from './configs.js';
import { ArtifactServer, startKustomizeController, type RunningFlux } from './flux.js';
import { measureFluxRep, type FluxBench, type FluxRep } from './flux-rep.js';
import { renderFluxTable, type GroundworkRep } from './flux-table.js';
import { cpuMs, memoryMb } from './proc-stats.js';

const REPS = 3;

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

export async function benchFlux(
  workloads: Workload[],
  opts: {
    reps?: number;
    driftInterval?: string;
    fluxTimeoutMs?: number;
    /** @default FLUX_CONFIGS (defaults and tuned) */
    configs?: readonly FluxConfig[];
  } = {},
): Promise<string> {
  const reps = opts.reps ?? REPS;
  // Past this, a configuration's first sync counts as not finished: it is left out of the
  // workload's remaining repetitions.
  const fluxTimeoutMs = opts.fluxTimeoutMs ?? 900_000;
  const driftInterval = opts.driftInterval ?? '1m';
  const configs = opts.configs ?? FLUX_CONFIGS;
  const build = await ensureFluxBuild();
  const cp = await LocalControlPlane.start({ auditLog: true });
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig, maxSockets: 32 });
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-flux-'));
  const artifacts = await ArtifactServer.start();
  const start = (config: FluxConfig) =>
    startKustomizeController(client, build, { kubeconfig: cp.info.kubeconfig, logDir: work, config });
  const controllers = new Map<FluxConfig, RunningFlux>();
  const peaks = new Map<FluxConfig, number>();
  const bench: FluxBench = {
    client,
    artifacts,
    apiserverPid: cp.info.pids.kubeApiserver,
    auditLog: cp.info.auditLog!,
  };
  const notePeak = (config: FluxConfig) =>
    peaks.set(config, Math.max(peaks.get(config) ?? 0, memoryMb(controllers.get(config)!.process.pid).peak));
  const rows: string[] = [];
  let gwPeak = 0;
  try {
    for (const c of configs) controllers.set(c, await start(c));
    for (const w of workloads) {
      const series: { config: FluxConfig; reps: FluxRep[]; unfinishedMs?: number }[] = configs.map(
        (config) => ({ config, reps: [] }),
      );
      const gw: GroundworkRep[] = [];
      for (let rep = 0; rep < reps; rep++) {
        for (const f of series) {
          if (f.unfinishedMs !== undefined) continue;
          const namespace = `flux-${f.config.name}-${w.key}-${rep}`;
          const r = await measureFluxRep(bench, controllers.get(f.config)!, {
            config: f.config,
            namespace,
            objects: w.objects(namespace) as K8sObject[],
            rep,
            timeoutMs: fluxTimeoutMs,
            // Drift once per workload and configuration (it waits for Flux's interval).
            ...(rep === 0 ? { driftInterval } : {}),
          });
          notePeak(f.config);
          if ('unfinishedMs' in r) {
            // A fresh controller, so that the reconcile still in flight ends.
            f.unfinishedMs = r.unfinishedMs;
            await controllers.get(f.config)!.stop();
            controllers.set(f.config, await start(f.config));
          } else f.reps.push(r);
        }
        // Groundwork's engine on the same objects in a fresh namespace: first sync, no-op, change.
        const gns = `gw-${w.key}-${rep}`;
        await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: gns } } });
        const dir = await writeObjects(join(work, gns), w.objects(gns));
        const r = await groundworkChild(cp.info.kubeconfig, dir, `bench-${w.key}-${rep}`, bench.apiserverPid);
        gw.push({
          first: r.first.totalMs,
          noop: r.noop.totalMs,
          noopCpu: r.noop.cpuMs,
          noopApi: r.apiserverNoopCpuMs,
          noopWrites: r.noop.writes,
          ...(r.change ? { change: r.change.totalMs } : {}),
        });
        gwPeak = Math.max(gwPeak, r.maxRssMb);
        if (series.every((f) => f.unfinishedMs !== undefined)) break;
      }
      const table = renderFluxTable({
        label: w.label,
        reps,
        groundwork: gw,
        flux: series,
        driftInterval,
      });
      rows.push(table);
      // Each workload's table as soon as it is measured: a long run keeps what it found.
      process.stderr.write(`${table}\n`);
    }
    rows.push(
      `Peak RSS over the run: Groundwork's engine process ${gwPeak.toFixed(0)} MB, ${configs
        .map((c) => `kustomize-controller ${FLUX_VERSION} (${c.name}) ${(peaks.get(c) ?? 0).toFixed(0)} MB`)
        .join(', ')}.`,
      '',
      `Flux configurations: ${configs.map((c) => `${c.title}: ${c.args.length ? c.args.map((a) => `\`${a}\``).join(' ') : 'as shipped (--concurrent 4, --concurrent-ssa 4, --kube-api-qps 50, --kube-api-burst 300)'}`).join('; ')}. Each runs as its own process and reconciles only the Kustomizations labelled for it (--watch-label-selector); the other one is idle meanwhile.`,
      '',
      "What each side does: Flux downloads the artifact (a tar.gz served on loopback, with the GitRepository status written as source-controller would: source-controller itself cannot be built here), verifies its digest, runs kustomize build, then a server-side dry-run and apply of every object; Groundwork's engine reads the synthesized files, plans against the live objects (one LIST per kind, dry-runs only for objects that differ) and applies with server-side apply. Neither side's git fetch is in the figures; Groundwork's synth is not either (bench synth measures it). Drift: Flux has no watch on what it applied, so an out-of-band edit stays until its next interval's apply; the Groundwork agent's drift watch reports and corrects it (bench agent measures it at the same sizes).",
      '',
    );
  } finally {
    for (const f of controllers.values()) await f.stop();
    await artifacts.stop();
    client.close();
    await cp.stop();
    await rm(work, { recursive: true, force: true });
  }
  return rows.join('\n');
}
