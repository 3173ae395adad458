import { z } from 'zod';
import { listItemSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import type { KubeClient } from './client.js';
import { resourcePath, type ResourceInfo } from './discovery.js';

/**
 * One page of a LIST: items are checked to be objects with a name (not copied), `items: null`
 * reads as none.
 */
export const listPageSchema = z.looseObject({
  items: z
    .array(listItemSchema)
    .nullish()
    .transform((items) => items ?? []),
  metadata: z.looseObject({ continue: z.string().optional(), resourceVersion: z.string() }),
});

/** LIST requests made through `listAll` in this process (pages count), for tests and benchmarks. */
export const listRequests = { count: 0 };

/** Lists every object of a kind in one namespace (or cluster-wide), following `continue` tokens. */
export async function listAll(
  client: KubeClient,
  info: ResourceInfo,
  namespace: string | undefined,
  opts: { labelSelector?: string; pageSize?: number } = {},
): Promise<K8sObject[]> {
  const { items, pages } = await listWithVersion(client, info, namespace, opts);
  listRequests.count += pages;
  return items;
}

/**
 * `listAll`, with the list's resourceVersion (the snapshot a watch continues from) and the number
 * of pages it took.
 */
export async function listWithVersion(
  client: KubeClient,
  info: ResourceInfo,
  namespace: string | undefined,
  opts: { labelSelector?: string; pageSize?: number } = {},
): Promise<{ items: K8sObject[]; resourceVersion: string; pages: number }> {
  const items: K8sObject[] = [];
  let token: string | undefined;
  let resourceVersion: string | undefined;
  let pages = 0;
  const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  do {
    pages++;
    const page = await client.request('GET', resourcePath(info, namespace), {
      query: { limit: opts.pageSize ?? 500, continue: token, labelSelector: opts.labelSelector },
      schema: listPageSchema,
    });
    // List items omit apiVersion/kind; restore them so items are whole objects. In place, on the
    // page's own objects: V8 gave each copy made by a spread a hidden class of its own once that
    // site had seen many, 5 MB of class descriptions for the 20,000 objects a cache holds.
    for (const item of page.items) {
      const whole = item as K8sObject;
      whole.apiVersion = apiVersion;
      whole.kind = info.kind;
      items.push(whole);
    }
    resourceVersion ??= page.metadata.resourceVersion;
    token = page.metadata.continue || undefined;
  } while (token);
  return { items, resourceVersion: resourceVersion!, pages };
}
