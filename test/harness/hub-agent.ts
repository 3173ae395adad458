import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { platformRepo, type PlatformRepo } from './agent-repo.js';
import { BIN } from './cli.js';
import { installHubWithCli, removeHub, startHubController, stopProcess } from './hub.js';
import { runControlPlane } from './run-control-plane.js';

// A real `groundwork agent --hub FILE` as its own process, for the hub e2e tests
// (test/hub/hub-agent.e2e.test.ts, test/hub/hub-release.e2e.test.ts).

/** Writes a bootstrap kubeconfig (mode 0600) into a new directory; returns its path. */
export function bootstrapFile(kubeconfig: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
  writeFileSync(file, kubeconfig, { mode: 0o600 });
  return file;
}

export interface HubAgentOptions {
  /** The platform repository's URL (its branch main is followed). */
  readonly repo: string;
  /** The agent's namespace on the cluster `kubeconfig` names. */
  readonly namespace: string;
  readonly kubeconfig: string;
  /** `--hub`: the bootstrap kubeconfig file. */
  readonly hub: string;
  /** More flags (e.g. `--hub-releases required`). */
  readonly args?: readonly string[];
  /** The agent's cache (checkouts); a new directory when absent. Reuse it to restart an agent. */
  readonly cacheDir?: string;
}

/** `groundwork agent --hub FILE --overlay test --interval 1s`, its logs kept in memory. */
export function startHubAgent(opts: HubAgentOptions): { agent: ChildProcess; logs: () => string } {
  const agent = spawn(
    process.execPath,
    [
      BIN,
      'agent',
      '--repo',
      opts.repo,
      '--overlay',
      'test',
      '--interval',
      '1s',
      '--namespace',
      opts.namespace,
      '--http-port',
      '0',
      '--kubeconfig',
      opts.kubeconfig,
      '--hub',
      opts.hub,
      ...(opts.args ?? []),
    ],
    {
      env: {
        ...process.env,
        GROUNDWORK_CACHE_DIR: opts.cacheDir ?? mkdtempSync(join(tmpdir(), 'gw-hub-agent-cache-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let logs = '';
  agent.stdout!.on('data', (d: Buffer) => (logs += d.toString()));
  agent.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
  return { agent, logs: () => logs };
}

/** The hub and a platform repository of a hub e2e file (`useHub`): set in its beforeAll. */
export interface HubContext {
  /** Admin of the run's control plane, which plays the hub. */
  admin: KubeClient;
  repo: PlatformRepo;
  /** `groundwork hub run`, while it runs. */
  controller: ChildProcess | undefined;
}

/**
 * Registers the file's beforeAll and afterAll: the run's control plane as the hub (installed with
 * `groundwork hub bootstrap`, its controller running with its own rights) and a platform repository
 * named `repoName` served over git smart-HTTP; afterwards the controller stops and the hub is removed.
 */
export function useHub(repoName: string): HubContext {
  const ctx = { controller: undefined } as HubContext;
  beforeAll(async () => {
    ctx.admin = await KubeClient.load({ kubeconfig: runControlPlane().kubeconfig });
    await installHubWithCli();
    ctx.controller = await startHubController(ctx.admin);
    ctx.repo = await platformRepo(repoName);
  }, 120_000);
  afterAll(async () => {
    await stopProcess(ctx.controller);
    await (ctx.repo as PlatformRepo | undefined)?.stop();
    if ((ctx.admin as KubeClient | undefined) !== undefined) {
      await removeHub(ctx.admin);
      ctx.admin.close();
    }
  });
  return ctx;
}
