import { ApiError } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import type { K8sObject } from '../../core/object.js';

/**
 * Replaces the object's status through its status subresource (`PUT <path>/status`), as the real
 * controllers (OLM, CVO, MCO) do with UpdateStatus. A PUT, not a merge patch: status fields that
 * are legitimately `null` in real dumps (e.g. `completionTime` of a Partial history entry) must
 * survive. Retries on resourceVersion conflicts. Returns the object as the server stored it.
 */
export async function writeStatus(client: KubeClient, path: string, status: unknown): Promise<K8sObject> {
  for (let attempt = 1; ; attempt++) {
    const current = await client.request<K8sObject>('GET', path);
    try {
      return await client.request<K8sObject>('PUT', `${path}/status`, { body: { ...current, status } });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || attempt >= 5) throw err;
    }
  }
}
