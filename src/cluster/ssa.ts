import { k8sObjectSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import { FIELD_MANAGER } from '../plan/plan.js';
import type { KubeClient } from './client.js';
import { resourcePath, type Discovery } from './discovery.js';

/**
 * One server-side apply (`PATCH` with `application/apply-patch+yaml`, field manager `groundwork`).
 * Does not force unless asked: a conflict comes back as a 409 naming the other managers.
 */
export async function ssaPatch(
  client: KubeClient,
  discovery: Discovery,
  obj: K8sObject,
  opts: { force?: boolean; dryRun?: boolean; fieldManager?: string; signal?: AbortSignal } = {},
): Promise<K8sObject> {
  const info = await discovery.resolve(obj.apiVersion, obj.kind);
  return client.request('PATCH', resourcePath(info, obj.metadata.namespace, obj.metadata.name), {
    body: obj,
    contentType: 'application/apply-patch+yaml',
    query: {
      fieldManager: opts.fieldManager ?? FIELD_MANAGER,
      force: opts.force ? true : undefined,
      dryRun: opts.dryRun ? 'All' : undefined,
    },
    signal: opts.signal,
    schema: k8sObjectSchema,
  });
}
