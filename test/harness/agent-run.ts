import type { AgentOptions } from '../../src/agent/options.js';
import type { PlatformRepo } from './agent-repo.js';
import { eventually, type ClusterContext } from './cluster.js';

/** A PlatformSync's status as the agent e2e tests read it. */
export interface SyncStatus {
  lastAppliedRevision?: string;
  conditions?: { type: string; status: string; reason: string; message: string }[];
}

/**
 * The options the agent e2e tests start an agent with: `repo`'s branch main, overlay `test`,
 * self-heal, a 0.5 s interval, the status in the test's namespace, the cache beside the checkout.
 * `more` adds options or overrides these.
 */
export function agentOptions(
  cluster: ClusterContext,
  repo: PlatformRepo,
  more: Partial<AgentOptions> = {},
): AgentOptions {
  return {
    repository: { url: repo.url, ref: { branch: 'main' } },
    overlay: 'test',
    mode: 'self-heal',
    intervalMs: 500,
    namespace: cluster.namespace,
    kubeconfig: cluster.kubeconfig,
    cacheDir: `${repo.repo.workDir}-cache`,
    ...more,
  };
}

/** The status of the first PlatformSync in the test's namespace, if any. */
export async function syncStatus(cluster: ClusterContext): Promise<SyncStatus | undefined> {
  const list = await cluster.client.request<{ items: { status?: SyncStatus }[] }>(
    'GET',
    `/apis/groundwork.io/v1alpha1/namespaces/${cluster.namespace}/platformsyncs`,
  );
  return list.items[0]?.status;
}

/** Waits (30 s at most) until the PlatformSync records `sha` on main as last applied. */
export async function appliedRevision(cluster: ClusterContext, sha: string, what: string): Promise<void> {
  await eventually(
    async () => ((await syncStatus(cluster))?.lastAppliedRevision === `main@sha1:${sha}` ? true : undefined),
    30_000,
    what,
  );
}

/** Waits (30 s at most) for `Stalled=True` with reason SynthFailed; returns the status and condition. */
export async function stalledOnSynth(
  cluster: ClusterContext,
  what: string,
): Promise<{ s: SyncStatus; c: NonNullable<SyncStatus['conditions']>[number] }> {
  return eventually(
    async () => {
      const s = await syncStatus(cluster);
      const c = s?.conditions?.find((x) => x.type === 'Stalled');
      return s && c?.status === 'True' && c.reason === 'SynthFailed' ? { s, c } : undefined;
    },
    30_000,
    what,
  );
}
