import { ClusterSession } from '../reconcile/cluster-session.js';
import { KubeClient } from '../cluster/client.js';
import { connectionOf, type ClusterFlags } from './cluster-flags.js';

/** Opens a session on the cluster named by the flags. */
export async function openSession(flags: ClusterFlags): Promise<ClusterSession> {
  const client = await KubeClient.load(connectionOf(flags));
  return new ClusterSession(client);
}
