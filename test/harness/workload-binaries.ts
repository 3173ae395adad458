import { beforeAll } from 'vitest';
import { resolveBinaries } from '../../src/dev/controlplane/binaries.js';
import {
  resolveWorkloadBinaries,
  type WorkloadBinaries,
} from '../../src/dev/controlplane/workload-binaries.js';
import { recordBuild } from './test-run.js';
import { testFile, TOOL_BUILD_TIMEOUT_MS, toolProgress } from './tools.js';

let resolved: Promise<WorkloadBinaries> | undefined;

/**
 * kube-scheduler and KWOK, found or built (both from the control plane's module, about 20 s of CPU
 * after the control plane's build) on the first request of the process; the time goes to the
 * run's summary with the file that asked. Only files that run pods pay for them: the global setup
 * builds neither.
 */
export function workloadBinaries(): Promise<WorkloadBinaries> {
  resolved ??= (async () => {
    const started = Date.now();
    const controlPlane = await resolveBinaries({ build: false });
    const cachedBefore = await resolveWorkloadBinaries(controlPlane, { build: false }).then(
      () => true,
      () => false,
    );
    const found = await resolveWorkloadBinaries(controlPlane, { progress: toolProgress });
    const by = testFile();
    recordBuild({
      what: 'kube-scheduler and KWOK',
      how: cachedBefore ? 'cached' : 'built',
      ms: Date.now() - started,
      ...(by ? { by } : {}),
    });
    return found;
  })();
  resolved.catch(() => (resolved = undefined));
  return resolved;
}

/**
 * Registers a `beforeAll` that finds or builds kube-scheduler and KWOK with a cold build's time limit,
 * for a test file that starts a cluster with nodes (`useDedicatedControlPlane({ nodes })`, or the
 * CLI's `cluster up`), so a cold run builds here and never inside a test's time limit.
 */
export function useWorkloadBinaries(): void {
  beforeAll(async () => {
    await workloadBinaries();
  }, TOOL_BUILD_TIMEOUT_MS);
}
