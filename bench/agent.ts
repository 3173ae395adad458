// Agent benchmark (issues 6 and 11), one run per platform size, each on a fresh local control plane:
// commit → applied latency of a one-object change (webhook, and polling), drift-detection latency,
// CPU time of a no-op cycle and the agent's steady RSS and heap (the agent runs as its own process,
// compiled), then a growth table across the sizes and, at the largest, what the agent's heap holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../src/cluster/client.js';
import { installCrds } from '../src/cluster/crds.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../src/core/crd-dirs.js';
import { freePort } from '../src/dev/controlplane/free-port.js';
import { readObjects } from '../src/core/yaml-files.js';
import { AGENT_MALLOC_ENV } from '../src/install/agent-deployment.js';
import { serveBenchPlatform } from './bench-platform-repo.js';
import { stopAgentBench } from './stop-agent-bench.js';
import { fullGc, procMemory, processCpu, processCpuMs, sampleMemory, type ProcMemory } from './agent-proc.js';

interface AgentRun {
  objects: number;
  initialMs: number;
  webhookMs: number;
  /** The agent's own CPU over each webhook cycle (utime + stime), median of 3. */
  webhookCpuMs: number;
  /** Its reaped children's CPU over each webhook cycle (the renderer tree: renderer and platform child), median of 3. */
  webhookChildCpuMs: number;
  pollMs: number;
  driftMs: number;
  correctedMs: number;
  noopCpuMs: number;
  cycles: number;
  /** The same over the minute after (V8's memory reducer has mostly run its full GCs by then). */
  noopLaterCpuMs: number;
  laterCycles: number;
  /** RSS at the end of the no-op minute (one reading, prom-client's). */
  rssMb: number;
  heapMb: number;
  /** The lowest RSS read over the two no-op minutes (/proc every second), with its anonymous and file-backed parts. */
  rssMin: ProcMemory;
  /** The highest RSS read over the two no-op minutes. */
  rssMaxMb: number;
  /** RSS and V8 heap in use right after a full GC asked at the end of the run (`fullGc`). */
  rssAfterGcMb: number;
  heapAfterGcMb: number;
  /** The highest RSS since the agent started (VmHWM: the initial sync, the webhook cycles). */
  peakRssMb: number;
  breakdown?: string;
  /** With `--renderer`: the renderer process's CPU (its own and its renders') over the no-op minute. */
  rendererNoopCpuMs?: number;
  /** With `--renderer`: the renders it logged over the no-op minute. */
  rendererNoopRenders?: number;
}

/** The agent's CPU over both no-op minutes divided by their cycles. */
const noopBoth = (r: AgentRun) =>
  (r.noopCpuMs * r.cycles + r.noopLaterCpuMs * r.laterCycles) / Math.max(1, r.cycles + r.laterCycles);

export async function benchAgent(sizes: number[] = [5000]): Promise<string> {
  const runs: AgentRun[] = [];
  for (const [i, n] of sizes.entries()) runs.push(await runAgent(n, i === sizes.length - 1, false));
  // The renderer pod's layout (issue 31) beside the local renderer, at the largest size
  // (BENCH_AGENT_RENDERER_POD=0 leaves it out: one control plane less, and BENCH_AGENT_LOG keeps
  // the local renderer's run).
  const remote =
    process.env.BENCH_AGENT_RENDERER_POD === '0' ? undefined : await runAgent(sizes.at(-1)!, false, true);
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  const col = (f: (r: AgentRun) => string) => runs.map(f).join(' | ');
  const first = runs[0]!;
  const last = runs.at(-1)!;
  const growth = (f: (r: AgentRun) => number) =>
    runs.length > 1
      ? `${(f(last) / f(first)).toFixed(1)}× for ${(last.objects / first.objects).toFixed(0)}× the objects`
      : '';
  return [
    `| measure | ${col((r) => `${r.objects.toLocaleString('en')} objects`)} | growth | target |`,
    `|---|${runs.map(() => '---|').join('')}---|---|`,
    `| initial sync (fetch, synth, apply) | ${col((r) => `${(r.initialMs / 1000).toFixed(1)} s`)} | ${growth((r) => r.initialMs)} | |`,
    `| commit → applied, webhook (median of 3) | ${col((r) => `${(r.webhookMs / 1000).toFixed(2)} s`)} | ${growth((r) => r.webhookMs)} | ≤ 1 s at 5k |`,
    `| CPU of a webhook cycle: agent · its renderer tree (median of 3) | ${col((r) => `${r.webhookCpuMs.toFixed(0)} · ${r.webhookChildCpuMs.toFixed(0)} ms`)} | | |`,
    `| commit → applied, polling (interval 10 s ± 10%) | ${col((r) => `${(r.pollMs / 1000).toFixed(2)} s`)} | | ≤ interval + a cycle |`,
    `| drift detection (edit → DriftDetected Event) | ${col((r) => `${(r.driftMs / 1000).toFixed(2)} s`)} | | ≤ 2 s at 20k |`,
    `| drift corrected (edit → restored, self-heal) | ${col((r) => `${(r.correctedMs / 1000).toFixed(2)} s`)} | | |`,
    `| CPU time of a no-op cycle | ${col((r) => `${r.noopCpuMs.toFixed(0)} ms (${r.cycles} cycles)`)} | ${growth((r) => r.noopCpuMs)} | ≤ 150 ms at 5k |`,
    `| CPU time of a no-op cycle, the minute after | ${col((r) => `${r.noopLaterCpuMs.toFixed(0)} ms (${r.laterCycles} cycles)`)} | ${growth((r) => r.noopLaterCpuMs)} | |`,
    `| CPU time of a no-op cycle over both minutes (the memory reducer's GCs included) | ${col((r) => `${noopBoth(r).toFixed(0)} ms (${r.cycles + r.laterCycles} cycles)`)} | ${growth(noopBoth)} | ≤ 100 ms at 20k |`,
    `| steady agent RSS, end of the no-op minute (one reading) | ${col((r) => mb(r.rssMb))} | ${growth((r) => r.rssMb)} | ≤ 300 MB at 20k |`,
    `| of which V8 heap in use | ${col((r) => mb(r.heapMb))} | ${growth((r) => r.heapMb)} | |`,
    `| steady agent RSS, lowest over the two no-op minutes (anonymous · file-backed) | ${col((r) => `${mb(r.rssMin.rssMb)} (${mb(r.rssMin.anonMb)} · ${mb(r.rssMin.fileMb)})`)} | ${growth((r) => r.rssMin.rssMb)} | |`,
    `| highest agent RSS over the two no-op minutes | ${col((r) => mb(r.rssMaxMb))} | | |`,
    `| agent RSS after a full GC, at the end (V8 heap in use) | ${col((r) => `${mb(r.rssAfterGcMb)} (${mb(r.heapAfterGcMb)})`)} | ${growth((r) => r.rssAfterGcMb)} | |`,
    `| peak agent RSS since start (VmHWM: initial sync, webhook cycles) | ${col((r) => mb(r.peakRssMb))} | ${growth((r) => r.peakRssMb)} | |`,
    '',
    "The agent runs as its own process from the compiled build (`GROUNDWORK_RUN_FROM=dist groundwork agent`); synth runs in its child process, not counted in the RSS. A no-op cycle's CPU is the process's CPU over a minute of polls without changes, divided by the cycles; the minute after is measured the same way (V8's memory reducer runs two or three full GCs of the live heap some seconds after the last cycle that allocated much, mostly within the first minute). The RSS rows read /proc/<pid>/status: once a second over both minutes (lowest and highest), VmHWM for the peak, and once more after a full GC asked through the inspector (SIGUSR1) once everything else is measured.",
    '',
    ...(remote ? [rendererTable(last, remote), ''] : []),
    ...(last.breakdown ? [last.breakdown] : []),
  ].join('\n');
}

/** The local renderer's run beside the `--renderer URL` run (a `groundwork renderer` process), as ratios. */
function rendererTable(local: AgentRun, remote: AgentRun): string {
  const row = (what: string, f: (r: AgentRun) => number, unit: (x: number) => string) =>
    `| ${what} | ${unit(f(local))} | ${unit(f(remote))} | ${(f(remote) / f(local)).toFixed(2)}× |`;
  const s = (x: number) => `${(x / 1000).toFixed(2)} s`;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  return [
    `Renderer pod layout (\`--renderer\`, issue 31) at ${local.objects.toLocaleString('en')} objects: the same bench with the agent sending renders to \`groundwork renderer\` (its own process, on loopback) instead of launching its renderer itself.`,
    '',
    '| measure | local renderer | --renderer URL | ratio |',
    '|---|---|---|---|',
    row('initial sync (fetch, synth, apply)', (r) => r.initialMs, s),
    row('commit → applied, webhook (median of 3)', (r) => r.webhookMs, s),
    row('CPU time of a no-op cycle (agent)', (r) => r.noopCpuMs, ms),
    row(
      'steady agent RSS',
      (r) => r.rssMb,
      (x) => `${x.toFixed(0)} MB`,
    ),
    `| renderer process CPU over the no-op minute (${remote.cycles} cycles) | | ${ms(remote.rendererNoopCpuMs ?? NaN)}, ${remote.rendererNoopRenders ?? NaN} renders | |`,
  ].join('\n');
}

async function runAgent(objects: number, breakdown: boolean, remote: boolean): Promise<AgentRun> {
  const cp = await LocalControlPlane.start();
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
  await installCrds(client, (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat());
  const root = await mkdtemp(join(tmpdir(), 'gw-agent-bench-'));
  const work = join(root, 'work');
  const namespaces = 10;
  const { server, publish } = await serveBenchPlatform(root, { namespaces, objects });
  const port = await freePort();
  const secret = 'bench-webhook-secret';
  const renderer = remote ? await startRenderer(root) : undefined;
  // Where SIGUSR1 opens the agent's inspector for the full GC at the end (`fullGc`); it opens nothing before.
  const inspectPort = await freePort();
  const agent = spawn(
    process.execPath,
    [
      // BENCH_AGENT_NODE_ARGS: extra Node flags for the agent, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
      ...(process.env.BENCH_AGENT_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      `--inspect-port=127.0.0.1:${inspectPort}`,
      new URL('../../bin/groundwork.js', import.meta.url).pathname,
      'agent',
      '--repo',
      server.url('platform.git'),
      '--overlay',
      'bench',
      '--interval',
      '10s',
      '--namespace',
      'groundwork-system',
      '--http-port',
      String(port),
      '--kubeconfig',
      cp.info.kubeconfig,
      '--mode',
      'self-heal',
      '--log-level',
      process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...(renderer ? ['--renderer', renderer.url] : []),
    ],
    {
      env: {
        ...process.env,
        // glibc's malloc as the agent's Deployment sets it (BENCH_AGENT_MALLOC=0: glibc's defaults).
        ...(process.env.BENCH_AGENT_MALLOC === '0'
          ? {}
          : Object.fromEntries(AGENT_MALLOC_ENV.map((e) => [e.name, e.value]))),
        GROUNDWORK_RUN_FROM: 'dist',
        GROUNDWORK_WEBHOOK_SECRET: secret,
        GROUNDWORK_CACHE_DIR: join(root, 'cache'),
        ...(renderer ? { GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' } : {}),
      },
      // BENCH_AGENT_LOG=<file> keeps the agent's JSON log (with per-cycle timings at BENCH_LOG_LEVEL=debug).
      stdio: [
        'ignore',
        process.env.BENCH_AGENT_LOG ? openSync(process.env.BENCH_AGENT_LOG, 'w') : 'ignore',
        'inherit',
      ],
    },
  );
  const metric = async (name: string): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    // Sum over every label set (e.g. reconcile counts by result).
    const lines = text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
    return lines.length ? lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0) : NaN;
  };
  const valueOf = async (i: number) =>
    (
      await client
        .request<{ data: { value: string } }>(
          'GET',
          `/api/v1/namespaces/bench-${i % namespaces}/configmaps/cm-${i}`,
        )
        .catch(() => undefined)
    )?.data.value;
  const until = async (check: () => Promise<boolean>, timeoutMs: number) => {
    const t = performance.now();
    while (performance.now() - t < timeoutMs) {
      if (await check().catch(() => false)) return performance.now() - t;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('timed out');
  };
  try {
    const initial = await until(async () => (await valueOf(objects - 1)) === 'initial', 300_000);
    await new Promise((r) => setTimeout(r, 12_000)); // let the first cycles settle (one full poll interval)

    // Webhook: a one-object change, then a signed push notification; median of three pushes.
    const webhookRuns: number[] = [];
    const webhookCpu: { self: number; children: number }[] = [];
    for (const value of ['webhook-1', 'webhook-2', 'webhook']) {
      const sha = await publish({ 'cm-17': value }, `change one object (webhook, ${value})`);
      const body = JSON.stringify({ ref: 'refs/heads/main', after: sha });
      const t0 = performance.now();
      const cpu0 = processCpu(agent.pid!);
      const hook = await fetch(`http://127.0.0.1:${port}/webhook`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
      });
      if (hook.status !== 202) throw new Error(`webhook answered ${hook.status}`);
      await until(async () => (await valueOf(17)) === value, 60_000);
      webhookRuns.push(performance.now() - t0);
      const cpu1 = processCpu(agent.pid!);
      webhookCpu.push({ self: cpu1.self - cpu0.self, children: cpu1.children - cpu0.children });
      await new Promise((r) => setTimeout(r, 1000));
    }
    const webhookMs = [...webhookRuns].sort((a, b) => a - b)[1]!;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;

    // Polling: a one-object change and no notification (interval 10 s ± 10%).
    await new Promise((r) => setTimeout(r, 2000));
    const t1 = performance.now();
    await publish({ 'cm-17': 'webhook', 'cm-18': 'polled' }, 'change one object (poll)');
    await until(async () => (await valueOf(18)) === 'polled', 60_000);
    const pollMs = performance.now() - t1;

    // Drift: an out-of-band edit until the DriftDetected Event.
    const live = await client.request<Record<string, unknown>>(
      'GET',
      '/api/v1/namespaces/bench-9/configmaps/cm-99',
    );
    const t2 = performance.now();
    await client.request('PUT', '/api/v1/namespaces/bench-9/configmaps/cm-99', {
      body: { ...live, data: { index: '99', value: 'drifted' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    await until(async () => {
      const events = await client.request<{ items: { reason: string; regarding: { name: string } }[] }>(
        'GET',
        '/apis/events.k8s.io/v1/namespaces/bench-9/events',
      );
      return events.items.some((e) => e.reason === 'DriftDetected' && e.regarding.name === 'cm-99');
    }, 30_000);
    const driftMs = performance.now() - t2;
    // Self-heal: until the edit is undone.
    await until(async () => (await valueOf(99)) === 'initial', 30_000);
    const correctedMs = performance.now() - t2;

    // No-op cycles: CPU per cycle over a minute of polls without changes, and the steady RSS.
    await new Promise((r) => setTimeout(r, 12_000));
    const cpu0 = await metric('process_cpu_seconds_total');
    const cycles0 = await metric('groundwork_reconcile_duration_seconds_count');
    const rendererCpu0 = renderer ? processCpuMs(renderer.child.pid!) : 0;
    const renders0 = renderer?.renders() ?? 0;
    const sampler = sampleMemory(agent.pid!);
    await new Promise((r) => setTimeout(r, 60_000));
    const cpu1 = await metric('process_cpu_seconds_total');
    const cycles1 = await metric('groundwork_reconcile_duration_seconds_count');
    const rendererCpu1 = renderer ? processCpuMs(renderer.child.pid!) : 0;
    const rss = (await metric('process_resident_memory_bytes')) / 1048576;
    const cpuPerCycle = ((cpu1 - cpu0) / Math.max(1, cycles1 - cycles0)) * 1000;

    const heap = (await metric('nodejs_heap_size_used_bytes')) / 1048576;
    await new Promise((r) => setTimeout(r, 60_000));
    const minutes = sampler.stop();
    const cpu2 = await metric('process_cpu_seconds_total');
    const cycles2 = await metric('groundwork_reconcile_duration_seconds_count');
    const peakRssMb = procMemory(agent.pid!).peakMb;
    await fullGc(agent.pid!, inspectPort);
    await new Promise((r) => setTimeout(r, 1000));
    const afterGc = procMemory(agent.pid!);
    const heapAfterGc = (await metric('nodejs_heap_size_used_bytes')) / 1048576;
    // BENCH_AGENT_HEAP_SNAPSHOT=<file>: the agent's heap after another full GC, once everything is read.
    if (process.env.BENCH_AGENT_HEAP_SNAPSHOT)
      await fullGc(
        agent.pid!,
        inspectPort,
        `${process.env.BENCH_AGENT_HEAP_SNAPSHOT}-${objects}.heapsnapshot`,
      );
    const result: AgentRun = {
      objects,
      initialMs: initial,
      webhookMs,
      webhookCpuMs: median(webhookCpu.map((c) => c.self)),
      webhookChildCpuMs: median(webhookCpu.map((c) => c.children)),
      pollMs,
      driftMs,
      correctedMs,
      noopCpuMs: cpuPerCycle,
      cycles: cycles1 - cycles0,
      noopLaterCpuMs: ((cpu2 - cpu1) / Math.max(1, cycles2 - cycles1)) * 1000,
      laterCycles: cycles2 - cycles1,
      rssMb: rss,
      heapMb: heap,
      rssMin: minutes.min,
      rssMaxMb: minutes.max.rssMb,
      rssAfterGcMb: afterGc.rssMb,
      heapAfterGcMb: heapAfterGc,
      peakRssMb,
      ...(renderer
        ? {
            rendererNoopCpuMs: rendererCpu1 - rendererCpu0,
            rendererNoopRenders: renderer.renders() - renders0,
          }
        : {}),
    };
    if (breakdown) result.breakdown = await heapBreakdown(cp.info.kubeconfig, work, objects);
    return result;
  } finally {
    if (renderer) {
      renderer.child.kill('SIGTERM');
      await new Promise((r) => renderer.child.once('exit', r));
    }
    await stopAgentBench({ agent, server, client, cp, root });
  }
}

/**
 * `groundwork renderer` from the compiled build, as its own process with an environment of its
 * own (no webhook secret), on a free loopback port; counts the renders it logs.
 */
async function startRenderer(root: string): Promise<{ url: string; child: ChildProcess; renders(): number }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [new URL('../../bin/groundwork.js', import.meta.url).pathname, 'renderer', '--port', String(port)],
    {
      env: {
        PATH: process.env.PATH,
        HOME: join(root, 'renderer-home'),
        GROUNDWORK_RUN_FROM: 'dist',
        GROUNDWORK_CACHE_DIR: join(root, 'renderer-cache'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let renders = 0;
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      renders = out.split('rendered a ').length - 1;
      if (out.includes('renderer listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`groundwork renderer exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, renders: () => renders };
}

/**
 * What the agent's heap holds at `objects`, measured in a separate process (`memory-child.ts`)
 * that builds the same long-lived structures one after the other, with a full GC between.
 */
function heapBreakdown(kubeconfig: string, checkout: string, objects: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const script = new URL('./memory-child.js', import.meta.url).pathname;
    const child = spawn(process.execPath, ['--expose-gc', script, kubeconfig, checkout, 'bench'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`memory child exited ${code}`));
      const parts = JSON.parse(out) as { what: string; mb: number }[];
      const total = parts.reduce((sum, p) => sum + p.mb, 0);
      resolve(
        [
          `What the agent's heap holds at ${objects.toLocaleString('en')} objects (built one after the other in a separate process, full GC between; \`bench/memory-child.ts\`):`,
          '',
          '| structure | heap | per object | share |',
          '|---|---|---|---|',
          ...parts.map(
            (p) =>
              `| ${p.what} | ${p.mb.toFixed(1)} MB | ${((p.mb * 1048576) / objects / 1024).toFixed(2)} KB | ${((100 * p.mb) / total).toFixed(0)}% |`,
          ),
          '',
        ].join('\n'),
      );
    });
  });
}
