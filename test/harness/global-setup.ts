import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { KubeClient } from '../../src/cluster/client.js';
import { installCrds } from '../../src/cluster/crds.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { isAlive } from '../../src/dev/controlplane/process.js';
import type { Progress } from '../../src/core/progress.js';
import { readObjects } from '../../src/core/yaml-files.js';
import { TOOL_NAMES } from '../../src/tools/recipes.js';
import { tool } from './tools.js';

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
 * The Go tools (helm, kustomize, sops, gitea) built or found, then one real control plane per
 * test run: built or taken from the cache, started on loopback,
 * with the fixture CRDs installed and Established. Teardown stops it and checks that no
 * process it started is still alive.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The Go tools first, one at a time and before anything else starts: a cold build of each uses
  // every core (see README "Testing" for the cold times). Cached, this reads four small files.
  for (const name of TOOL_NAMES) await tool(name);
  const cp = await LocalControlPlane.start({ progress: log, auditLog: true, requireControllerManager: true });
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
