import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { KubeClient } from '../../src/cluster/client.js';
import { installCrds } from '../../src/cluster/crds.js';
import { resolveBinaries } from '../../src/dev/controlplane/binaries.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { isAlive } from '../../src/dev/controlplane/process.js';
import type { Progress } from '../../src/core/progress.js';
import { readObjects } from '../../src/core/yaml-files.js';
import { killSharedServicesSync, stopSharedServices } from './shared-service.js';
import { recordBuild, TEST_RUN_DIR } from './test-run.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfig: string;
    server: string;
    controlPlanePids: number[];
    auditLog: string;
    kubectl: string;
  }
}

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
 * One real control plane per test run: built or taken from the cache (the time either took goes to
 * the run's summary), started on loopback, with the fixture CRDs installed and Established.
 * Nothing else is built here: each Go tool is built when the first test file that needs it asks
 * (`test/harness/tools.ts`), so a run of files that need none builds none. Teardown stops the
 * control plane and the run's shared services (Gitea, Chromium: `shared-service.ts`) and checks
 * that no process the control plane started is still alive.
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
  const cp = await LocalControlPlane.start({
    progress: log,
    auditLog: true,
    requireControllerManager: true,
    binaries,
  });
  // Shared services are detached: kill them if vitest ends without the teardown, by an exit or by a
  // signal. Installed after the control plane's start installed its own handlers (they run first);
  // the signal is then raised again for its default action, unless another handler is left.
  process.on('exit', () => killSharedServicesSync(run.dir));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => {
      killSharedServicesSync(run.dir);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  try {
    const client = await KubeClient.load({ kubeconfig: cp.info.kubeconfig });
    const crds = (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat();
    await installCrds(client, crds);
    client.close();
  } catch (err) {
    process.stderr.write(cp.logs());
    await cp.stop();
    throw err;
  }
  project.provide('kubeconfig', cp.info.kubeconfig);
  project.provide('server', cp.info.server);
  project.provide('controlPlanePids', cp.pids);
  project.provide('auditLog', cp.info.auditLog ?? '');
  project.provide('kubectl', cp.info.binaries.kubectl ?? '');
  return async () => {
    await stopSharedServices(run.dir);
    if (run.owned) rmSync(run.dir, { recursive: true, force: true });
    const pids = cp.pids;
    // Peak memory of the control plane over the run (VmHWM of each process), for the record.
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
    await cp.stop();
    const alive = pids.filter(isAlive);
    if (alive.length > 0)
      throw new Error(`control-plane processes still alive after stop: ${alive.join(', ')}`);
  };
}

/** The run's directory (`test-run.ts`): the summary reporter's, else one made here for this run. */
function runDir(): { dir: string; owned: boolean } {
  const existing = process.env[TEST_RUN_DIR];
  if (existing) return { dir: existing, owned: false };
  const dir = mkdtempSync(join(tmpdir(), 'gw-test-run-'));
  process.env[TEST_RUN_DIR] = dir;
  return { dir, owned: true };
}
