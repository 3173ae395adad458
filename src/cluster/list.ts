import type { K8sObject } from '../core/object.js';
import type { KubeClient } from './client.js';
import { resourcePath, type ResourceInfo } from './discovery.js';

/** LIST requests made through `listAll` in this process (pages count), for tests and benchmarks. */
export const listRequests = { count: 0 };

/** Lists every object of a kind in one namespace (or cluster-wide), following `continue` tokens. */
export async function listAll(
  client: KubeClient,
  info: ResourceInfo,
  namespace: string | undefined,
  opts: { labelSelector?: string; pageSize?: number } = {},
): Promise<K8sObject[]> {
  const items: K8sObject[] = [];
  let token: string | undefined;
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  do {
    listRequests.count++;
    const page = await client.request<{ items: K8sObject[]; metadata: { continue?: string } }>(
      'GET',
      resourcePath(info, namespace),
      {
        query: { limit: opts.pageSize ?? 500, continue: token, labelSelector: opts.labelSelector },
      },
    );
    // List items omit apiVersion/kind; restore them so items are whole objects.
    for (const item of page.items) items.push({ ...item, apiVersion, kind: info.kind });
    token = page.metadata.continue || undefined;
  } while (token);
  return items;
}
