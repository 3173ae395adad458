import { waitFor, type WaitOutcome } from '../../apply/wait.js';
import { isNotFound } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import { SyncStatusStore } from '../../cluster/sync-status-store.js';
import { readClusterVersion } from '../../cluster-version/cluster-state.js';
import { k8sObjectSchema } from '../../core/cluster-object.js';
import { convergence, targetVersionOf, type ConvergenceView } from './converged.js';

export interface ConvergeOptions {
  /** Namespace and name of the agent's PlatformSync. */
  sync: { namespace: string; name: string };
  /** The committed revision the platform must reach (`main@sha1:<hex>`). */
  revision: string;
  timeoutMs: number;
  /** Told what is still pending, every 2 s. */
  onProgress: (pending: string) => void;
}

/**
 * Waits until the platform has converged (`convergence`): reads the PlatformSync status through
 * the sync-status store and the live ClusterVersion, every 500 ms. Rejects with `WaitTimeout`
 * (naming what is pending) after `timeoutMs`. Reads only; never touches the agent.
 */
export async function waitConverged(client: KubeClient, opts: ConvergeOptions): Promise<WaitOutcome> {
  const store = new SyncStatusStore(client, { namespace: opts.sync.namespace });
  const look = async (): Promise<ConvergenceView> => ({
    revision: opts.revision,
    status: (await store.read(opts.sync.name))?.status,
    clusterVersion: await clusterVersion(client),
  });
  return waitFor(async () => convergence(await look()), {
    what: `PlatformSync ${opts.sync.namespace}/${opts.sync.name}`,
    timeoutMs: opts.timeoutMs,
    onProgress: (pending) => opts.onProgress(pending[0] ?? ''),
  });
}

/** The live ClusterVersion `version` with its target annotation; undefined until it exists. */
async function clusterVersion(client: KubeClient): Promise<ConvergenceView['clusterVersion']> {
  try {
    const live = await client.request('GET', '/apis/config.openshift.io/v1/clusterversions/version', {
      schema: k8sObjectSchema,
    });
    return { target: targetVersionOf(live), state: readClusterVersion(live) };
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
