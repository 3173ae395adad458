import { readFileSync, rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { KubeClient } from '../../src/cluster/client.js';
import { installCrds } from '../../src/cluster/crds.js';
import { resolveBinaries } from '../../src/dev/controlplane/binaries.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { isAlive } from '../../src/core/process-alive.js';
import type { Progress } from '../../src/core/progress.js';
import { readObjects } from '../../src/core/yaml-files.js';
import { killSharedServicesSync, stopSharedServices } from './shared-service.js';
import type { RunControlPlane } from './run-control-plane.js';
import { makeRunDir, recordBuild, TEST_RUN_DIR } from './test-run.js';

let lastUpdate = 0;
const log: Progress = {
  start: (t) => process.stderr.write(`[control plane] ${t}\n`),
  // A cold build takes minutes: say what it is doing at most every 20 s.
  update: (t) => {
    if (Date.now() - lastUpdate < 20_000) return;
    lastUpdate = Date.now();
    process.stderr.write(`[control plane] ${t}\n`);
  },
  succeed: (t) => process.stderr.write(`[control plane] ${t}\n`),
  fail: (t) => process.stderr.write(`[control plane] FAILED: ${t}\n`),
  info: (t) => process.stderr.write(`[control plane] ${t}\n`),
};

/**
 * The run's real control planes, one per e2e lane (the e2e project's workers: `vitest.config.ts`;
 * `run-control-plane.ts` gives a file its lane's): built once or taken from the cache (the time
 * either took goes to the run's summary), started on loopback side by side, each with the fixture
 * CRDs installed and Established. Nothing else is built here: each Go tool is built when the first
 * test file that needs it asks (`test/harness/tools.ts`), so a run of files that need none builds
 * none. Teardown stops the control planes and the run's shared services (Gitea, Chromium:
 * `shared-service.ts`) and checks that no process a control plane started is still alive.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = runDir();
  const resolving = Date.now();
  const binaries = await resolveBinaries({ progress: log });
  recordBuild({
    what: 'control plane',
    how: binaries.source === 'built' ? 'built' : 'cached',
    ms: Date.now() - resolving,
  });
  const lanes = await laneCount(project);
  const started = await Promise.allSettled(
    Array.from({ length: lanes }, () =>
      LocalControlPlane.start({ progress: log, auditLog: true, requireControllerManager: true, binaries }),
    ),
  );
  const planes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stopAll = () => Promise.all(planes.map((cp) => cp.stop()));
  // Shared services are detached: kill them if vitest ends without the teardown, by an exit or by a
  // signal. Installed after the control planes' start installed their own handlers (they run
  // first); the signal is then raised again for its default action, unless another handler is left.
  process.on('exit', () => killSharedServicesSync(run.dir));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => {
      killSharedServicesSync(run.dir);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  try {
    const crds = (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat();
    for (const cp of planes) {
      const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
      await installCrds(client, crds);
      client.close();
    }
  } catch (err) {
    for (const cp of planes) process.stderr.write(cp.logs());
    await stopAll();
    throw err;
  }
  const provided: RunControlPlane[] = planes.map((cp) => ({
    kubeconfig: cp.info.kubeconfig,
    server: cp.info.server,
    pids: cp.pids,
    auditLog: cp.info.auditLog ?? '',
  }));
  project.provide('controlPlanes', provided);
  project.provide('kubectl', planes[0]!.info.binaries.kubectl ?? '');
  log.info(`${planes.length} control plane${planes.length === 1 ? '' : 's'}, one per e2e lane`);
  return async () => {
    await stopSharedServices(run.dir);
    if (run.owned) rmSync(run.dir, { recursive: true, force: true });
    const pids = planes.flatMap((cp) => cp.pids);
    // Peak memory of the control planes over the run (VmHWM of each process), for the record.
    const peaks = pids.map((pid) => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        return `${name} ${Math.round(kb / 1024)} MB`;
      } catch {
        return `${pid} ?`;
      }
    });
    process.stderr.write(`[control plane] peak RSS: ${peaks.join(', ')}\n`);
    await stopAll();
    const alive = pids.filter(isAlive);
    if (alive.length > 0)
      throw new Error(`control-plane processes still alive after stop: ${alive.join(', ')}`);
  };
}

/** The run's directory (`test-run.ts`): the summary reporter's, else one made here for this run. */
function runDir(): { dir: string; owned: boolean } {
  const existing = process.env[TEST_RUN_DIR];
  if (existing) return { dir: existing, owned: false };
  return { dir: makeRunDir(), owned: true };
}

/**
 * One lane per worker of the e2e project, but no more than the e2e files this run has (a run of
 * one file starts one control plane). The files are those vitest resolved from the command line's
 * filters (`filenamePattern`, an internal of vitest 4: when it is missing, every worker gets a lane).
 */
async function laneCount(project: TestProject): Promise<number> {
  const workers = Math.max(1, project.config.maxWorkers);
  try {
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    const specs = await project.vitest.globTestSpecifications(filters);
    const files = specs.filter((spec) => spec.project.name === project.name).length;
    return Math.max(1, Math.min(workers, files));
  } catch {
    return workers;
  }
}
