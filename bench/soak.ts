// `bench soak` (issue 20, long runs): the quick start's agent as its own process (compiled build),
// under load for `durationMs`: an out-of-band edit every 5 s (checked to be restored), a
// MachineConfig-changing commit every minute (checked to be applied) and an apiserver restart every
// 10 minutes. Once a minute the agent's RSS and its heap after a full GC (`soak-probe.ts`) are read
// and printed (stderr, as they come); the report gives their slopes after the first five minutes.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../src/cluster/client.js';
import { installCrds } from '../src/cluster/crds.js';
import { LocalControlPlane } from '../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs, packageRoot } from '../src/core/crd-dirs.js';
import { freePort } from '../src/dev/controlplane/free-port.js';
import { readObjects } from '../src/core/yaml-files.js';
import { runCommand } from '../src/cli/run-command.js';
import { startGitServer } from '../src/dev/git-server.js';
import { SimulatedOpenShift } from '../src/dev/simulators/world.js';
import { commitLoop, editLoop, ownerIsGit, restartLoop } from './soak-load.js';
import { type SoakCounts, type SoakSample, soakReport } from './soak-stats.js';

export interface SoakOptions {
  durationMs: number;
  /** The agent's poll interval (the quick start's: 1s). */
  interval?: string;
  /** Minutes at which the agent writes a heap snapshot (into `dir`). */
  snapshotMinutes?: number[];
  /** How often the apiserver restarts. @default 10 minutes */
  restartEveryMs?: number;
  /** Where the probe file and snapshots go (default: a new temporary directory, kept). */
  dir?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) =>
  process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

export async function benchSoak(opts: SoakOptions): Promise<string> {
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'gw-soak-out-')));
  const cpl = await LocalControlPlane.start();
  const client = await KubeClient.load({ kubeconfig: cpl.info.kubeconfig });
  const root = await mkdtemp(join(tmpdir(), 'gw-soak-'));
  const stops: (() => Promise<unknown>)[] = [
    () => cpl.stop(),
    async () => client.close(),
    () => rm(root, { recursive: true, force: true }),
  ];
  try {
    await installCrds(client, (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat());
    const world = await SimulatedOpenShift.start({
      kubeconfig: cpl.info.kubeconfig,
      communityCatalogs: [join(packageRoot, 'catalogs', 'community-operators')],
      intervalMs: 200,
      updateTicks: 2,
    });
    stops.push(() => world.stop());
    const publish = await platformRepo(root);
    const server = await startGitServer({ root: join(root, 'served') });
    stops.push(() => server.stop());
    const probe = join(dir, 'memory.jsonl');
    await writeFile(probe, '');
    const agent = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        new URL('./soak-probe.js', import.meta.url).pathname,
        new URL('../../bin/groundwork.js', import.meta.url).pathname,
        ...['agent', '--repo', server.url('platform.git'), '--overlay', 'dev', '--mode', 'self-heal'],
        ...['--interval', opts.interval ?? '1s', '--namespace', 'groundwork-system'],
        ...[
          '--http-port',
          String(await freePort()),
          '--kubeconfig',
          cpl.info.kubeconfig,
          '--log-level',
          process.env.SOAK_LOG_LEVEL ?? 'warn',
        ],
      ],
      {
        env: {
          ...process.env,
          GROUNDWORK_RUN_FROM: 'dist',
          GROUNDWORK_CACHE_DIR: join(root, 'cache'),
          SOAK_PROBE_FILE: probe,
        },
        // The agent's JSON log (level SOAK_LOG_LEVEL, default warn) goes to agent.log beside the probe.
        stdio: ['ignore', openSync(join(dir, 'agent.log'), 'w'), 'inherit'],
      },
    );
    const exited = new Promise((r) => agent.once('exit', r));
    // Stopped by a signal, the control plane kills its processes (controlplane/process.ts); the agent too.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => agent.kill('SIGKILL'));
    stops.push(async () => {
      agent.kill('SIGTERM');
      await exited;
    });
    const started = Date.now();
    const samples: SoakSample[] = [];
    const sample = async (minute: number) => {
      if (opts.snapshotMinutes?.includes(minute)) await writeFile(`${probe}.snapshot`, '');
      const before = (await readFile(probe, 'utf8')).length;
      agent.kill('SIGUSR2');
      for (let i = 0; i < 600 && (await readFile(probe, 'utf8')).length === before; i++) await sleep(100);
      const last = (await readFile(probe, 'utf8')).trim().split('\n').at(-1);
      if (!last) return;
      const m = JSON.parse(last) as { rss: number; heapUsed: number };
      samples.push({ minute, rssMb: m.rss / 1048576, heapMb: m.heapUsed / 1048576 });
      log(
        `minute ${minute}: RSS ${samples.at(-1)!.rssMb.toFixed(1)} MB, heap ${samples.at(-1)!.heapMb.toFixed(1)} MB`,
      );
    };
    // The load starts once the first sync has put the platform's ConfigMap in place.
    while (!(await ownerIsGit(client).catch(() => false))) {
      if (Date.now() - started > 600_000)
        throw new Error('the agent did not sync the platform within 10 minutes');
      await sleep(500);
    }
    log(`first sync after ${((Date.now() - started) / 1000).toFixed(1)} s; load starts`);
    const until = started + opts.durationMs;
    const counts: SoakCounts = {
      editsRestored: 0,
      editsTotal: 0,
      slowestRestoreMs: 0,
      commitsApplied: 0,
      commitsTotal: 0,
      restarts: 0,
    };
    const sampler = (async () => {
      for (let minute = 1; started + minute * 60_000 <= until; minute++) {
        await sleep(started + minute * 60_000 - Date.now());
        await sample(minute);
        log(
          `edits ${counts.editsRestored}/${counts.editsTotal}, commits ${counts.commitsApplied}/${counts.commitsTotal}, restarts ${counts.restarts}`,
        );
      }
    })();
    await Promise.all([
      sampler,
      editLoop({ client, until, everyMs: 5000, timeoutMs: 60_000, counts, log }),
      commitLoop({ client, until, everyMs: 60_000, timeoutMs: 120_000, publish, counts, log }),
      restartLoop({
        until,
        everyMs: opts.restartEveryMs ?? 600_000,
        restart: () => cpl.restartApiserver({ downMs: 1000 }),
        counts,
        log,
      }),
    ]);
    return [
      `${(opts.durationMs / 60_000).toFixed(0)} minutes; the quick start's agent (overlay dev, interval ${opts.interval ?? '1s'}) as its own process from the compiled build; heap read after a full GC; probe output, agent log and snapshots in ${dir}.`,
      '',
      soakReport(samples, counts),
    ].join('\n');
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/** The example platform committed to a repository and served bare; returns the commit publisher. */
async function platformRepo(root: string): Promise<(n: number) => Promise<string>> {
  const work = join(root, 'work');
  for (const p of ['groundwork.yaml', 'platform', 'overlays', 'catalogs'])
    await cp(join(packageRoot, p), join(work, p), { recursive: true });
  await writeFile(join(work, 'package.json'), '{ "type": "module" }\n');
  const env = {
    GIT_AUTHOR_NAME: 'soak',
    GIT_AUTHOR_EMAIL: 's@s',
    GIT_COMMITTER_NAME: 'soak',
    GIT_COMMITTER_EMAIL: 's@s',
  };
  const git = (...args: string[]) =>
    runCommand('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: work, env });
  await git('init', '-q', '--initial-branch=main');
  await git('add', '.');
  await git('commit', '-qm', 'example platform');
  await runCommand('git', ['clone', '-q', '--bare', work, join(root, 'served', 'platform.git')], {
    cwd: root,
    env,
  });
  const overlay = await readFile(join(work, 'overlays', 'dev.yaml'), 'utf8');
  if (!overlay.includes('0.rhel.pool.ntp.org'))
    throw new Error('overlays/dev.yaml no longer sets the chrony server');
  return async (n) => {
    const server = `soak-${n}.pool.ntp.org`;
    await writeFile(join(work, 'overlays', 'dev.yaml'), overlay.replace('0.rhel.pool.ntp.org', server));
    await git('commit', '-qam', `chrony server ${server}`);
    await git('push', '-q', join(root, 'served', 'platform.git'), 'main');
    return server;
  };
}
