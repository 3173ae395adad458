// `npm run bench -- ui-idle [--dashboards 50] [--window 60s] [--sizes 1000]`: what open dashboards
// cost an idle agent. A real agent process (`groundwork agent --dashboard`, the compiled build) on
// a fresh local control plane applies a platform of N ConfigMaps and then has nothing to do; its
// CPU (utime + stime from /proc/<pid>/stat) and RSS (VmRSS, sampled every second) are measured over
// a window with no dashboard open, then over the same window with D dashboards open: each one
// page load (the page, its stylesheet and script) and its event stream held open, re-loading the
// page on every `change` event as the page's script does, each with its own ServiceAccount token
// (D readers, so D TokenReviews and SubjectAccessReviews).
//
// Plain HTTP clients stand in for the browser tabs: from the agent's side a tab is exactly these
// requests and this one held connection, and D headless tabs on a 2-core machine would take the
// CPU the agent is measured on (what the browser does with a page is bench ui's subject).
import { spawn } from 'node:child_process';
import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { KubeClient } from '../src/cluster/client.js';
import { installCrds } from '../src/cluster/crds.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../src/core/crd-dirs.js';
import { freePort } from '../src/dev/controlplane/free-port.js';
import { readObjects } from '../src/core/yaml-files.js';
import { runCommand } from '../src/cli/run-command.js';
import { serveBenchPlatform } from './bench-platform-repo.js';
import { stopAgentBench } from './stop-agent-bench.js';
import { median } from './cli-table.js';

const AGENT_NS = 'groundwork-system';
const READERS_NS = 'dashboard-readers';
/** The pages the dashboards keep open, in turn: a mix of what people watch. */
const PAGES = ['/', '/objects', '/drift', '/history', '/openshift'];

export interface UiIdleOptions {
  /** Open dashboards. @default 50 */
  dashboards?: number;
  /** Length of each measuring window. @default 60000 */
  windowMs?: number;
  /** ConfigMaps in the platform the agent applies. @default 1000 */
  objects?: number;
}

/** One window of the agent process: CPU as a share of one core, and RSS (median and highest of 1 s samples). */
interface Window {
  cpuShare: number;
  rssMedianMb: number;
  rssMaxMb: number;
}

/** CPU seconds (user + system) of process `pid` so far, from /proc/<pid>/stat. */
async function cpuSeconds(pid: number, ticksPerSecond: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** Resident set size of process `pid` in MB, from /proc/<pid>/status. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function measure(pid: number, ticks: number, windowMs: number): Promise<Window> {
  const rss: number[] = [];
  const cpu0 = await cpuSeconds(pid, ticks);
  const t0 = performance.now();
  while (performance.now() - t0 < windowMs) {
    rss.push(await rssMb(pid));
    await sleep(1000);
  }
  const cpu1 = await cpuSeconds(pid, ticks);
  return {
    cpuShare: (cpu1 - cpu0) / ((performance.now() - t0) / 1000),
    rssMedianMb: median(rss),
    rssMaxMb: Math.max(...rss),
  };
}

/** A token of ServiceAccount `namespace/name` from the TokenRequest API, judged by the apiserver as a pod's. */
async function accountToken(client: KubeClient, namespace: string, name: string): Promise<string> {
  const review = await client.request(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      },
      schema: z.object({ status: z.object({ token: z.string().min(1) }) }),
    },
  );
  return review.status.token;
}

/** The CLI's entry point: `bin/` beside `dist/` when compiled (`dist/bench/`), beside `bench/` under tsx. */
function groundworkBin(): string {
  const up = import.meta.url.includes('/dist/bench/') ? '../../' : '../';
  return new URL(`${up}bin/groundwork.js`, import.meta.url).pathname;
}

/**
 * Waits until the agent's RSS has moved less than 3 MB over 30 s (V8 gives memory back for a while
 * after the first apply), at most 4 minutes: an idle agent, not one still shrinking.
 */
async function settle(pid: number): Promise<void> {
  const samples: number[] = [];
  const t0 = performance.now();
  while (performance.now() - t0 < 240_000) {
    samples.push(await rssMb(pid));
    const last = samples.slice(-16);
    if (last.length === 16 && Math.max(...last) - Math.min(...last) < 3) return;
    await sleep(2000);
  }
}

const EDIT_WINDOW_MS = 15_000;

/**
 * The agent's CPU milliseconds in the `EDIT_WINDOW_MS` after an out-of-band edit of ConfigMap
 * `cm-<i>`: its drift watch, the self-heal, the status writes and what the dashboards do with them.
 */
async function editCost(client: KubeClient, pid: number, ticks: number, i: number): Promise<number> {
  const path = `/api/v1/namespaces/bench-${i % 10}/configmaps/cm-${i}`;
  const live = await client.request('GET', path, {
    schema: z.looseObject({ data: z.record(z.string(), z.string()) }),
  });
  const cpu0 = await cpuSeconds(pid, ticks);
  await client.request('PUT', path, {
    body: { ...live, data: { ...live.data, value: 'edited out of band' } },
    query: { fieldManager: 'kubectl-edit' },
  });
  await sleep(EDIT_WINDOW_MS);
  return ((await cpuSeconds(pid, ticks)) - cpu0) * 1000;
}

const progress = (what: string) => process.stderr.write(`ui-idle: ${what}\n`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One open dashboard: a page load, then its event stream, re-loading the page on each change. */
class Dashboard {
  changes = 0;
  reloads = 0;
  private readonly abort = new AbortController();
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly path: string,
  ) {}

  private get(path: string): Promise<Response> {
    return fetch(`${this.base}${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: this.abort.signal,
    });
  }

  /** Loads the page and its two static files, and opens the event stream; resolves to the page once it is open. */
  async open(): Promise<string> {
    const page = await this.get(this.path);
    const body = await page.text();
    if (page.status !== 200) throw new Error(`${this.path} answered ${page.status}: ${body.slice(0, 200)}`);
    for (const m of body.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)) await (await this.get(m[1]!)).text();
    const events = await this.get('/events');
    if (events.status !== 200 || !events.body) throw new Error(`/events answered ${events.status}`);
    void this.follow(events.body.getReader());
    return body;
  }

  private async follow(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const text = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += text.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: change$/m.test(event)) continue;
          this.changes++;
          // As the page's script: fetch the page again and swap its <main>.
          await (await this.get(this.path)).text();
          this.reloads++;
        }
      }
    } catch {
      // Aborted by close().
    }
  }

  close(): void {
    this.abort.abort();
  }
}

export async function benchUiIdle(opts: UiIdleOptions = {}): Promise<string> {
  const dashboards = opts.dashboards ?? 50;
  const windowMs = opts.windowMs ?? 60_000;
  const objects = opts.objects ?? 1000;
  const ticks = Number((await runCommand('getconf', ['CLK_TCK'], { cwd: tmpdir() })).trim());
  const cp = await LocalControlPlane.start();
  const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
  await installCrds(client, (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat());
  const root = await mkdtemp(join(tmpdir(), 'gw-ui-idle-'));
  const { server } = await serveBenchPlatform(root, { namespaces: 10, objects });

  // D readers: ServiceAccounts allowed to get the PlatformSync, as the agent's reviews require.
  for (const ns of [AGENT_NS, READERS_NS])
    await client
      .request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })
      .catch(() => undefined);
  await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${AGENT_NS}/roles`, {
    body: {
      metadata: { name: 'dashboard-reader' },
      rules: [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }],
    },
  });
  await client.request('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${AGENT_NS}/rolebindings`, {
    body: {
      metadata: { name: 'dashboard-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'dashboard-reader' },
      subjects: [
        {
          kind: 'Group',
          apiGroup: 'rbac.authorization.k8s.io',
          name: `system:serviceaccounts:${READERS_NS}`,
        },
      ],
    },
  });
  // And allowed to see what the bench applied: the dashboard shows a reader only the objects a
  // SubjectAccessReview lets it get (and Events it may list), so without this every page is empty
  // and the bench would measure empty pages. Not the built-in `view`: its rules are aggregated by a
  // controller the local control plane does not run.
  await client.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    body: {
      metadata: { name: 'groundwork-bench-ui-idle-viewer' },
      rules: [{ apiGroups: [''], resources: ['configmaps', 'namespaces', 'events'], verbs: ['get', 'list'] }],
    },
  });
  await client.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    body: {
      metadata: { name: 'groundwork-bench-ui-idle-viewer' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'groundwork-bench-ui-idle-viewer',
      },
      subjects: [
        {
          kind: 'Group',
          apiGroup: 'rbac.authorization.k8s.io',
          name: `system:serviceaccounts:${READERS_NS}`,
        },
      ],
    },
  });
  const tokens: string[] = [];
  for (let i = 0; i < dashboards; i++) {
    await client.request('POST', `/api/v1/namespaces/${READERS_NS}/serviceaccounts`, {
      body: { metadata: { name: `reader-${i}` } },
    });
    tokens.push(await accountToken(client, READERS_NS, `reader-${i}`));
  }

  progress(`${dashboards} reader tokens made; starting the agent`);
  const port = await freePort();
  const agent = spawn(
    process.execPath,
    [
      groundworkBin(),
      'agent',
      ...['--repo', server.url('platform.git'), '--overlay', 'bench', '--namespace', AGENT_NS],
      ...['--http-port', String(port), '--kubeconfig', cp.info.kubeconfig, '--dashboard'],
      ...['--mode', 'self-heal', '--log-level', 'warn'],
    ],
    {
      // GROUNDWORK_RUN_FROM=source measures the agent run by tsx from src/ (no build needed).
      env: {
        ...process.env,
        GROUNDWORK_RUN_FROM: process.env.GROUNDWORK_RUN_FROM ?? 'dist',
        GROUNDWORK_CACHE_DIR: join(root, 'cache'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const open: Dashboard[] = [];
  try {
    const pid = agent.pid!;
    // Applied: the last ConfigMap exists; then settled, as an idle agent is.
    const t0 = performance.now();
    for (;;) {
      const cm = await client
        .request('GET', `/api/v1/namespaces/bench-${(objects - 1) % 10}/configmaps/cm-${objects - 1}`)
        .catch(() => undefined);
      if (cm) break;
      if (performance.now() - t0 > 300_000)
        throw new Error('the agent did not apply the platform in 5 minutes');
      await sleep(500);
    }
    progress('platform applied; waiting for the RSS to settle');
    await settle(pid);
    progress('idle window');
    const idle = await measure(pid, ticks, windowMs);
    const editIdle = await editCost(client, pid, ticks, 7);

    progress(`opening ${dashboards} dashboards`);
    const cpuBeforeOpen = await cpuSeconds(pid, ticks);
    const tOpen = performance.now();
    for (let i = 0; i < dashboards; i++) {
      const d = new Dashboard(base, tokens[i]!, PAGES[i % PAGES.length]!);
      const page = await d.open();
      open.push(d);
      // A reader shown no objects would make this a bench of empty pages.
      if (PAGES[i % PAGES.length] === '/objects' && !page.includes('cm-'))
        throw new Error('the readers see no ConfigMap on /objects: check their ClusterRole');
    }
    const openingMs = performance.now() - tOpen;
    const openingCpuMs = ((await cpuSeconds(pid, ticks)) - cpuBeforeOpen) * 1000;
    await sleep(5_000);
    const changes0 = open.reduce((n, d) => n + d.changes, 0);
    progress('window with the dashboards open');
    const watched = await measure(pid, ticks, windowMs);
    const changes = open.reduce((n, d) => n + d.changes, 0) - changes0;
    const reloads0 = open.reduce((n, d) => n + d.reloads, 0);
    const editOpen = await editCost(client, pid, ticks, 8);
    const editReloads = open.reduce((n, d) => n + d.reloads, 0) - reloads0;

    const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
    const mb = (x: number) => `${x.toFixed(1)} MB`;
    const addedCpu = watched.cpuShare - idle.cpuShare;
    const addedRss = watched.rssMedianMb - idle.rssMedianMb;
    return [
      `| agent process | idle, no dashboard | ${dashboards} dashboards open | added | target | met |`,
      '|---|---|---|---|---|---|',
      `| CPU (share of one core) | ${pct(idle.cpuShare)} | ${pct(watched.cpuShare)} | ${pct(addedCpu)} | < 5% | ${addedCpu < 0.05 ? 'yes' : 'no'} |`,
      `| RSS (median of 1 s samples) | ${mb(idle.rssMedianMb)} | ${mb(watched.rssMedianMb)} | ${mb(addedRss)} | < 20 MB | ${addedRss < 20 ? 'yes' : 'no'} |`,
      `| CPU in the ${EDIT_WINDOW_MS / 1000} s after one out-of-band edit (drift, self-heal, status) | ${editIdle.toFixed(0)} ms | ${editOpen.toFixed(0)} ms (${editReloads} page reloads) | ${(editOpen - editIdle).toFixed(0)} ms | | |`,
      `| RSS (highest sample) | ${mb(idle.rssMaxMb)} | ${mb(watched.rssMaxMb)} | ${mb(watched.rssMaxMb - idle.rssMaxMb)} | | |`,
      '',
      `Windows of ${(windowMs / 1000).toFixed(0)} s each, ${objects.toLocaleString('en')} ConfigMaps applied, the agent's default 1 m poll interval, after its RSS settled (moved less than 3 MB over 30 s). Opening the ${dashboards} dashboards (each a page, its stylesheet and script, ${dashboards} TokenReviews and SubjectAccessReviews, and the event stream) took ${openingMs.toFixed(0)} ms and ${openingCpuMs.toFixed(0)} ms of the agent's CPU; during the open window they received ${changes} change events in all (each re-loads its page). The agent runs from ${process.env.GROUNDWORK_RUN_FROM === 'source' ? 'src/ through tsx (`GROUNDWORK_RUN_FROM=source`)' : 'the compiled build (`GROUNDWORK_RUN_FROM=dist`)'}; the dashboards are plain HTTP clients in the bench process, not counted.`,
      '',
    ].join('\n');
  } finally {
    for (const d of open) d.close();
    await stopAgentBench({ agent, server, client, cp, root });
  }
}
