import { startAgent } from '../../src/agent/start.js';
import { ClusterDashboardSource } from '../../src/ui/cluster-source.js';
import { startDashboardServer, type RunningDashboard } from '../../src/ui/dashboard-server.js';
import { newToken } from '../../src/ui/token-auth.js';
import { memoryLogger, platformRepo, type PlatformRepo } from './agent-repo.js';
import { agentOptions, appliedRevision } from './agent-run.js';
import type { ClusterContext } from './cluster.js';

/** What `dashboardOverAgent` started; everything is stopped by the cleanups it registered. */
export interface DashboardRun {
  readonly ns: string;
  readonly repo: PlatformRepo;
  /** The applied commit. */
  readonly sha: string;
  /** `groundwork ui`'s server (token in `server.url`). */
  readonly server: RunningDashboard;
}

/**
 * The dashboard as `groundwork ui` serves it, over a real agent in detect-only mode that has
 * applied a platform of ConfigMaps (`items`: name → value) in the test's namespace: the setup
 * of the browser tests. Cleanups are pushed onto `cleanups` in start order.
 */
export async function dashboardOverAgent(
  cluster: ClusterContext,
  cleanups: (() => Promise<void> | void)[],
  items: Record<string, string>,
): Promise<DashboardRun> {
  const ns = cluster.namespace;
  const repo = await platformRepo(`u${ns.slice(-6)}`);
  cleanups.push(() => repo.stop());
  const sha = await repo.publish({ namespace: ns, items }, {}, 'first');
  const agent = await startAgent(
    agentOptions(cluster, repo, { mode: 'detect-only', log: memoryLogger().log, debounceMs: 50 }),
  );
  cleanups.push(() => agent.stop());
  await appliedRevision(cluster, sha, 'first revision applied');
  const source = new ClusterDashboardSource(cluster.client, { namespace: ns });
  await source.start();
  cleanups.push(() => source.stop());
  const server = await startDashboardServer({ source, token: newToken() });
  cleanups.push(() => server.close());
  return { ns, repo, sha, server };
}
