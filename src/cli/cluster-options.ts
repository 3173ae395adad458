import { ClusterSession } from '../engine/reconcile.js';
import { KubeClient } from '../cluster/client.js';
import type { ClusterFlags } from './cluster-flags.js';

/** Opens a session on the cluster named by the flags. */
export async function openSession(flags: ClusterFlags): Promise<ClusterSession> {
  const client = await KubeClient.load({
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context ? { context: flags.context } : {}),
  });
  return new ClusterSession(client);
}
