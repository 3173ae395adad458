// `npm run bench -- hub --clusters 1000` (issue 34): N simulated members against one real hub on
// this machine. The hub is a local control plane started here (etcd, kube-apiserver,
// kube-controller-manager) with the hub installed, and its controller `groundwork hub run` as a
// child process with its own ServiceAccount's rights. The members (hub-fleet.ts) register with
// their own one-time tokens, heartbeat 60 s Leases every 15 s (jittered) and report on change,
// over a bounded pool of connections from this one process. Measured over the steady window:
// CPU (cores) and RSS of etcd, kube-apiserver, the controller (and kube-controller-manager);
// report-to-visible latency (the status PATCH sent → an admin watch of FleetMembers sees that
// sequence); `groundwork fleet status --hub` wall time (the real CLI, built); registration
// throughput; the silent members judged Unreachable. Beside them, `realAgents` real agents on
// control planes of their own (hub-real-agents.ts) register and take part in the rollout; their
// clusters' and agents' CPU is reported apart from the hub's.
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, hostname, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { KubeClient } from '../src/cluster/client.js';
import { watchKind } from '../src/cluster/watch.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { listFleetMembers } from '../src/hub/fleet-list.js';
import { listFleetTable } from '../src/hub/fleet-table.js';
import { memberKubeconfig } from '../src/hub/bootstrap-kubeconfig.js';
import { CONTROLLER_SERVICE_ACCOUNT, HUB_NAMESPACE, HUB_PATHS, LABELS } from '../src/hub/hub-names.js';
import { installHub } from '../src/hub/hub-install.js';
import { HUB_RESOURCES } from '../src/hub/hub-resources.js';
import { requestToken } from '../src/hub/member-setup.js';
import { readFleetMember } from '../src/hub/member-schema.js';
import { cpuMs, memoryMb } from './flux/proc-stats.js';
import { pooled, registerSimulated, SimulatedMember } from './hub-fleet.js';
import { cores, memberProfile, percentile } from './hub-model.js';
import { HubConnections } from './hub-pool.js';
import { cpuOf, RealAgents } from './hub-real-agents.js';
import { realAgentsSection } from './hub-real-plan.js';
import { RolloutTracker } from './hub-rollout.js';

export interface HubBenchOptions {
  readonly clusters: number;
  /** The steady window over which CPU and latency are measured. @default 120 s */
  readonly windowMs?: number;
  /** Sockets the members share. @default 64 */
  readonly connections?: number;
  /** Registrations in flight at once (each member polls for its answer with backoff, as the agent does). @default 128 */
  readonly registrationConcurrency?: number;
  /** Mean time between a member's state changes. @default 5 min */
  readonly changeEveryMs?: number;
  /** Roll a revision out through the prod members in four waves at the end. @default true */
  readonly rollout?: boolean;
  /** Real `groundwork agent --hub` processes on control planes of their own, in `prod` (0: none). @default 3 */
  readonly realAgents?: number;
}

const LEASE_SECONDS = 60;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) =>
  process.stderr.write(`[hub ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const BIN = new URL('../../bin/groundwork.js', import.meta.url).pathname;
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

function uptime(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** `groundwork fleet status --hub` through the built CLI: wall time in ms and its output. */
function fleetStatus(
  kubeconfig: string,
  output: 'text' | 'json',
  selector?: string,
): Promise<{ ms: number; stdout: string }> {
  const started = Date.now();
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [
        BIN,
        'fleet',
        'status',
        '--hub',
        kubeconfig,
        '-o',
        output,
        ...(selector ? ['--selector', selector] : []),
      ],
      { env: { ...process.env, GROUNDWORK_RUN_FROM: 'dist' }, maxBuffer: 1 << 28 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`fleet status: ${stderr}`)) : resolve({ ms: Date.now() - started, stdout }),
    ),
  );
}

/** Runs the bench at each size in turn; a Markdown report. */
export async function benchHub(sizes: readonly number[], opts: Omit<HubBenchOptions, 'clusters'> = {}) {
  const parts = [
    `Machine: ${hostname()}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${new Date().toISOString()}; load (1/5/15 min) at start ${uptime()}`,
  ];
  for (const clusters of sizes) {
    parts.push(await benchHubOnce({ ...opts, clusters }));
    process.stderr.write(`${parts.at(-1)}\n\n`); // each size as soon as it is measured
  }
  return parts.join('\n\n');
}

async function benchHubOnce(opts: HubBenchOptions): Promise<string> {
  const windowMs = opts.windowMs ?? 120_000;
  const loadAtStart = uptime();
  // The real members' control planes start with the hub's (each takes 20-40 s).
  const realCount = opts.realAgents ?? 3;
  const realStarting = realCount > 0 ? RealAgents.start(realCount) : undefined;
  realStarting?.catch(() => undefined); // awaited below; a failure there is the bench's error
  const cp = await LocalControlPlane.start();
  const admin = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-hub-'));
  const stops: (() => Promise<unknown>)[] = [
    async () => (await realStarting?.catch(() => undefined))?.stop(),
    () => cp.stop(),
    async () => admin.close(),
    () => rm(work, { recursive: true, force: true }),
  ];
  try {
    await installHub(admin, { namespace: HUB_NAMESPACE, image: 'unused', deployment: false });
    // The controller as it runs in its pod: `groundwork hub run` with its ServiceAccount's token.
    const { token } = await requestToken(admin, {
      namespace: HUB_NAMESPACE,
      serviceAccount: CONTROLLER_SERVICE_ACCOUNT,
      seconds: 86_400,
    });
    const caData = admin.clusterCaData();
    const controllerConfig = join(work, 'controller.kubeconfig');
    writeFileSync(
      controllerConfig,
      memberKubeconfig({ server: cp.info.server, ...(caData ? { caData } : {}) }, 'controller', token),
      { mode: 0o600 },
    );
    const controllerLog = join(work, 'controller.log');
    const controller = spawn(process.execPath, [BIN, 'hub', 'run', '--kubeconfig', controllerConfig], {
      env: { ...process.env, GROUNDWORK_RUN_FROM: 'dist' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let controllerOut = '';
    controller.stdout.on('data', (d: Buffer) => {
      if (controllerOut.length < 1 << 16) controllerOut += d.toString();
    });
    const exited = new Promise((r) => controller.once('exit', r));
    // Stopped by a signal, the control plane kills its processes (controlplane/process.ts); the controller too.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => controller.kill('SIGKILL'));
    stops.unshift(async () => {
      controller.kill('SIGTERM');
      await exited;
    });
    for (let i = 0; !controllerOut.includes('hub controller started'); i++) {
      if (i > 600 || controller.exitCode !== null) throw new Error(`hub run did not start: ${controllerOut}`);
      await sleep(100);
    }
    writeFileSync(controllerLog, controllerOut);
    const pids = {
      'kube-apiserver': cp.info.pids.kubeApiserver,
      etcd: cp.info.pids.etcd,
      'hub controller': controller.pid!,
      ...(cp.info.pids.kubeControllerManager
        ? { 'kube-controller-manager': cp.info.pids.kubeControllerManager }
        : {}),
    };

    // Report-to-visible: when each (member, sequence) status PATCH was sent, and when the watch saw it.
    let measuring = false;
    const sent = new Map<string, number>();
    const latencies: number[] = [];
    const observe = (method: string, path: string, body: unknown, at: number) => {
      if (method !== 'PATCH' || !path.endsWith('/status')) return;
      const seq = (body as { value?: { sequence?: number } }[])[0]?.value?.sequence;
      sent.set(`${path.split('/')[7]}#${seq}`, at);
    };
    const byName = new Map<string, SimulatedMember>();
    const real = await realStarting;
    const tracker = new RolloutTracker(byName);
    const watch = new AbortController();
    stops.unshift(async () => watch.abort());
    void watchKind(admin, HUB_RESOURCES.fleetMembers, {
      signal: watch.signal,
      onEvent: (_type, obj) => {
        tracker.onMember(obj, Date.now());
        real?.onMember(obj, Date.now());
        const seq = (obj as { status?: { sequence?: number } }).status?.sequence;
        const key = `${obj.metadata.name}#${seq}`;
        const at = sent.get(key);
        if (at === undefined) return;
        sent.delete(key);
        if (measuring) latencies.push(Date.now() - at);
      },
    });

    // Registration: every member with its own token, `registrationConcurrency` at a time.
    const connections = new HubConnections(
      cp.info.server,
      Buffer.from(caData ?? '', 'base64').toString('utf8'),
      opts.connections ?? 64,
    );
    stops.unshift(async () => connections.close());
    const profiles = Array.from({ length: opts.clusters }, (_, i) =>
      memberProfile(i, { silentEvery: 50, notReadyEvery: 20 }),
    );
    const members: SimulatedMember[] = [];
    stops.unshift(() => Promise.all(members.map((m) => m.stop())));
    const registrationMs: number[] = [];
    // The real agents register, and apply their first release, while the simulated members register.
    const realJoined = real?.join(admin, 'prod');
    realJoined?.catch(() => undefined); // awaited below
    const regStarted = Date.now();
    let progressAt = Date.now();
    await pooled(profiles, opts.registrationConcurrency ?? 128, async (profile) => {
      const { token: memberToken, ms } = await registerSimulated(admin, profile);
      registrationMs.push(ms);
      const m = new SimulatedMember(profile, memberToken, connections, {
        leaseSeconds: LEASE_SECONDS,
        changeEveryMs: opts.changeEveryMs ?? 300_000,
        observe,
      });
      members.push(m);
      byName.set(profile.name, m);
      m.start();
      if (Date.now() - progressAt > 10_000) {
        progressAt = Date.now();
        log(`${members.length}/${opts.clusters} registered`);
      }
    });
    const regSeconds = (Date.now() - regStarted) / 1000;
    if (real) {
      log(`${opts.clusters} registered in ${f1(regSeconds)} s; waiting for the ${realCount} real agents`);
      await realJoined;
    }
    log(`${opts.clusters} registered in ${f1(regSeconds)} s; warming up 20 s`);
    await sleep(20_000);

    // The steady window: silent members stop, CPU and RSS are read, latencies recorded.
    const silent = members.filter((m) => m.profile.role === 'silent');
    await Promise.all(silent.map((m) => m.stop()));
    const writesBefore = members.reduce((n, m) => n + m.reportWrites, 0);
    const beatsBefore = members.reduce((n, m) => n + m.heartbeats, 0);
    const requestsBefore = connections.requests;
    const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
    const selfBefore = process.cpuUsage();
    const realPids = real?.pids();
    const realCpuBefore = realPids && { cps: cpuOf(realPids.controlPlanes), agents: cpuOf(realPids.agents) };
    const loop = monitorEventLoopDelay({ resolution: 20 });
    loop.enable();
    const windowStart = Date.now();
    measuring = true;
    const peakRss: Record<string, number> = {};
    while (Date.now() - windowStart < windowMs) {
      for (const [k, pid] of Object.entries(pids)) peakRss[k] = Math.max(peakRss[k] ?? 0, memoryMb(pid).rss);
      await sleep(5000);
    }
    measuring = false;
    const wall = Date.now() - windowStart;
    const windowRequests = connections.requests - requestsBefore;
    loop.disable();
    const realCpu = realPids &&
      realCpuBefore && {
        controlPlanes: cores(realCpuBefore.cps, cpuOf(realPids.controlPlanes), wall),
        agents: cores(realCpuBefore.agents, cpuOf(realPids.agents), wall),
      };
    const cpuAfter = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
    const self = process.cpuUsage(selfBefore);
    const rows = Object.keys(pids).map((k) => {
      const c = cores(cpuBefore[k]!, cpuAfter[k]!, wall);
      return { name: k, cores: c, rss: memoryMb(pids[k as keyof typeof pids]!).rss, peak: peakRss[k] ?? 0 };
    });
    const hubRows = rows.filter((r) => r.name !== 'kube-controller-manager');
    const hubCores = hubRows.reduce((n, r) => n + r.cores, 0);
    const hubRss = hubRows.reduce((n, r) => n + r.peak, 0);
    const writes = members.reduce((n, m) => n + m.reportWrites, 0) - writesBefore;
    const beats = members.reduce((n, m) => n + m.heartbeats, 0) - beatsBefore;

    // The views: the real CLI (three runs, text), its row count (json), one in-process LIST.
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push((await fleetStatus(cp.info.kubeconfig, 'text')).ms);
    // Baseline in the same run: the CLI listing no member (process start, kubeconfig, one empty LIST).
    const empty = [];
    for (let i = 0; i < 3; i++)
      empty.push((await fleetStatus(cp.info.kubeconfig, 'text', `${LABELS.member}=none`)).ms);
    const json = await fleetStatus(cp.info.kubeconfig, 'json');
    // Where a LIST's time goes: the request (server and transfer) and the parse of every member.
    const rawStarted = Date.now();
    const raw = await admin.request<{ items: unknown[] }>('GET', HUB_PATHS.fleetMembers);
    const rawMs = Date.now() - rawStarted;
    const rawBytes = JSON.stringify(raw).length;
    const parseStarted = Date.now();
    raw.items.map(readFleetMember);
    const parseMs = Date.now() - parseStarted;
    const rowsListed = (JSON.parse(json.stdout) as { members: unknown[] }).members.length;
    const listStarted = Date.now();
    const listed = await listFleetMembers(admin);
    const listMs = Date.now() - listStarted;
    // What fleet status reads now: the CRD's printer columns as Table pages (fleet-table.ts).
    const tableMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      await listFleetTable(admin);
      tableMs.push(Date.now() - started);
    }
    const unreachable = listed.filter((m) => m.labels[LABELS.reachability] === 'Unreachable').length;
    const notReady = listed.filter((m) => m.report?.ready.status === 'False').length;
    const reportBytes = listed.map((m) => JSON.stringify(m.report ?? {}).length);
    // A revision rolled through the prod members in four waves, with the hub's CPU meanwhile.
    log('rolling a revision out to prod in four waves');
    const rolloutCpu = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
    const rolloutStarted = Date.now();
    // With real agents, the revision is a real commit of the branch they follow, pushed first.
    const commit =
      real && opts.rollout !== false ? { ref: real.branch, revision: await real.publish() } : undefined;
    const rollout =
      opts.rollout === false ? 'not run (--no-rollout)' : await tracker.run(admin, 'prod', commit);
    const rolloutWall = Date.now() - rolloutStarted;
    const realSection = real && (await realRows(real, tracker, admin, realCpu));
    // A wave with a Failed member never completes (rollout-decision.ts), so the failing canary is
    // rolled in its own environment, where the not-ready members are.
    const failingCanary = profiles.find((p) => p.role === 'not-ready');
    const halt =
      opts.rollout === false || !failingCanary
        ? 'not run'
        : await tracker.haltOnCanary(admin, failingCanary.environment, failingCanary.name);
    const rolloutCores = Object.entries(pids)
      .filter(([k]) => k !== 'kube-controller-manager')
      .reduce((n, [k, pid]) => n + cores(rolloutCpu[k]!, cpuMs(pid), rolloutWall), 0);

    return [
      `### ${opts.clusters} members (60 s leases renewed every 15 s ±10 %, a state change per member every ${f1((opts.changeEveryMs ?? 300_000) / 60_000)} min on average; ${opts.connections ?? 64} shared connections)`,
      '',
      `Load at start ${loadAtStart}, at end ${uptime()}. Steady window ${f1(wall / 1000)} s.`,
      '',
      '| process | CPU (cores, window average) | RSS at end | peak RSS sampled |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.name} | ${f2(r.cores)} | ${r.rss.toFixed(0)} MB | ${r.peak.toFixed(0)} MB |`),
      `| **hub** (apiserver + etcd + controller) | **${f2(hubCores)}** | | **${hubRss.toFixed(0)} MB** |`,
      `| load generator (this process) | ${f2((self.user + self.system) / 1000 / wall)} | ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB | |`,
      '',
      `- registration: ${opts.clusters} in ${f1(regSeconds)} s = **${f1(opts.clusters / regSeconds)} members/s** (${opts.registrationConcurrency ?? 128} in flight; each p50 ${f1(percentile(registrationMs, 50) / 1000)} s, p99 ${f1(percentile(registrationMs, 99) / 1000)} s, token issue excluded)`,
      `- report-to-visible (status PATCH sent → watch event), ${latencies.length} reports: **p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms**, max ${percentile(latencies, 100)} ms; load generator event-loop delay p99 ${f1(loop.percentile(99) / 1e6)} ms`,
      `- in the window: ${f1(writes / (wall / 1000))} report writes/s, ${f1(beats / (wall / 1000))} heartbeats/s (one PUT each), ${f1(windowRequests / (wall / 1000))} member requests/s; ${connections.failures} failed member requests in the run`,
      `- reports: mean ${(reportBytes.reduce((a, b) => a + b, 0) / Math.max(1, reportBytes.length)).toFixed(0)} B, max ${Math.max(0, ...reportBytes)} B of JSON`,
      `- \`groundwork fleet status --hub\` (built CLI, ${rowsListed} rows): **${runs.map((ms) => `${ms} ms`).join(', ')}** (process start included); the same CLI listing no member: ${empty.map((ms) => `${ms} ms`).join(', ')}; in-process: the Table pages fleet status reads (\`listFleetTable\`) ${tableMs.map((ms) => `${ms} ms`).join(', ')}; the full LIST (\`listFleetMembers\`, the baseline) ${listMs} ms = the LIST request ${rawMs} ms (${(rawBytes / 2 ** 20).toFixed(1)} MB of JSON) + parsing every member ${parseMs} ms`,
      `- injected failures: ${silent.length} members stopped heartbeating at the window's start → ${unreachable} Unreachable at its end; ${profiles.filter((p) => p.role === 'not-ready').length} report Ready=False → ${notReady} members listed not Ready (with drift and pool updates in flight)`,
      `- rollout: ${rollout}; hub CPU meanwhile ${f2(rolloutCores)} cores`,
      `- a rollout whose canary fails its health: ${halt}`,
      ...(realSection ? ['', realSection] : []),
    ].join('\n');
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

/** The "real agents" section: each real member's wave and release → applied in the last rollout. */
async function realRows(
  real: RealAgents,
  tracker: RolloutTracker,
  admin: KubeClient,
  cpu: { controlPlanes: number; agents: number } | undefined,
): Promise<string> {
  const reports = await real.finalReports(admin);
  const rollout = tracker.last;
  const rows = real.names.map((name) => {
    const wave = rollout?.status?.members?.find((m) => m.name === name)?.wave;
    const { released, applied } = tracker.instants(name);
    return {
      name,
      wave: wave === undefined || wave < 0 ? undefined : rollout?.spec.waves[wave]?.name,
      releasedAt: released,
      appliedAt: applied,
      appliedInCluster: reports.get(name)?.lastApplied,
      ready: reports.get(name)?.ready ?? 'no report',
    };
  });
  return realAgentsSection(rows, {
    objects: real.objects,
    visibleMs: real.visibleMs,
    ...(cpu ? { cpu } : {}),
  });
}
