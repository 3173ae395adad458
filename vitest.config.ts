import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Platform code imports 'groundwork-gitops'; in tests that is this repository's own source.
const alias = { 'groundwork-gitops': fileURLToPath(new URL('./src/index.ts', import.meta.url)) };
// Tests serve charts, registries, forges and alert receivers on loopback: allowed here only
// (core/outbound-url.ts refuses loopback otherwise). Security tests pass their own policy.
const env = { GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' };

// Two projects, both run by `npm test`:
// - unit: pure logic, fixtures and golden files; no cluster.
// - e2e: `*.e2e.test.ts`, against the real local control plane that the global setup starts once per run.
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
          setupFiles: ['test/harness/file-cpu.ts'],
          exclude: ['test/**/*.e2e.test.ts', 'node_modules/**'],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          env,
          include: ['test/**/*.e2e.test.ts'],
          globalSetup: ['test/harness/global-setup.ts'],
          setupFiles: ['test/harness/file-cpu.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // One file at a time: e2e files share cluster-scoped objects (CRDs, ClusterOperators,
          // the master/worker pools) that a real cluster has once.
          fileParallelism: false,
        },
      },
    ],
  },
});
