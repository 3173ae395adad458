import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Platform code imports 'groundwork-gitops'; in tests that is this repository's own source.
const alias = { 'groundwork-gitops': fileURLToPath(new URL('./src/index.ts', import.meta.url)) };
// Tests serve charts, registries, forges and alert receivers on loopback: allowed here only
// (core/outbound-url.ts refuses loopback otherwise). Security tests pass their own policy.
const env = { GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' };

/** Workers of a project: `GROUNDWORK_TEST_<NAME>_WORKERS`, else `fallback`. */
function workers(name: string, fallback: number): number {
  const n = Number(process.env[`GROUNDWORK_TEST_${name}_WORKERS`]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

// Two projects, both run by `npm test`, one after the other (sequence.groupOrder):
// - unit: pure logic, fixtures and golden files, real programs; no cluster. Files run two at a time,
//   in two workers that each load the sources once (isolate: false).
// - e2e: `*.e2e.test.ts`, against real local control planes that the global setup starts once per
//   run, one per lane. Files run in three lanes; a lane runs one file at a time on a control plane of
//   its own (test/harness/run-control-plane.ts), since e2e files share cluster-scoped objects (CRDs,
//   ClusterOperators, the master/worker pools) that a real cluster has once, and audit their writes.
// Two unit workers and three e2e lanes on a 2-core machine: e2e files wait on child processes, the
// apiserver, polls and timeouts as much as they compute, so a third lane fills the cores while two
// wait (CONTRIBUTING.md, "The time budget", has the measurements).
export default defineConfig({
  test: {
    reporters: ['default', './test/harness/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          env,
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/harness/cli-global-setup.ts'],
          setupFiles: ['test/harness/reset-process.ts', 'test/harness/file-cpu.ts'],
          exclude: ['test/**/*.e2e.test.ts', 'node_modules/**'],
          testTimeout: 30_000,
          // A beforeAll that starts sshd or a git server waits longer than vitest's 10 s on a loaded machine.
          hookTimeout: 60_000,
          // Files of a worker share its module registry: each source module is loaded once per
          // worker, not once per file (a third of the unit project's CPU went to loading them).
          // Files must not lean on module state another file left (none mocks modules); each starts
          // with the worker's environment variables and directory (reset-process.ts).
          isolate: false,
          maxWorkers: workers('UNIT', 2),
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          env,
          include: ['test/**/*.e2e.test.ts'],
          globalSetup: ['test/harness/cli-global-setup.ts', 'test/harness/global-setup.ts'],
          setupFiles: ['test/harness/reset-process.ts', 'test/harness/file-cpu.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // A lane's files share its process and module registry, as the unit project's do: loading
          // the sources again for each file was 159 s of the e2e files' time, 23 s now. Each file
          // starts with the lane's environment and directory (reset-process.ts).
          isolate: false,
          maxWorkers: workers('E2E', 3),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
