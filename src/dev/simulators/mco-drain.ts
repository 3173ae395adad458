import { ApiError } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import type { K8sObject } from '../../core/object.js';
import { list } from './api.js';

/**
 * One pass of the MCO's drain of a cordoned node, as `kubectl drain --ignore-daemonsets
 * --delete-emptydir-data --force` does it: every pod bound to the node except DaemonSet pods and
 * mirror pods is evicted through the Eviction API (so PodDisruptionBudgets hold: a refused eviction
 * is tried again on the next pass). Resolves to the number of such pods still on the node, terminating
 * ones included: the drain is done at 0.
 */
export async function drainPass(client: KubeClient, node: string): Promise<number> {
  const pods = (await list(client, '/api/v1/pods', { fieldSelector: `spec.nodeName=${node}` })).filter(
    evictable,
  );
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const { name, namespace = 'default' } = pod.metadata;
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`;
    try {
      await client.request('POST', path, {
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
        noRetry: true,
      });
    } catch (err) {
      // 429: a PodDisruptionBudget refuses it for now; 404: gone meanwhile.
      if (!(err instanceof ApiError && (err.status === 429 || err.status === 404))) throw err;
    }
  }
  return pods.length;
}

function evictable(pod: K8sObject): boolean {
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) return false;
  return !(pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
}
