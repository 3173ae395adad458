import { isNotFound } from '../../cluster/api-error.js';
import type { KubeClient } from '../../cluster/client.js';
import type { K8sObject } from '../../core/object.js';

/**
 * The REST paths the simulators use. They play fixed operators, so their kinds are known and need
 * no discovery.
 */
export const PATHS = {
  crds: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  subscriptions: (ns?: string) => olm(ns, 'subscriptions'),
  installPlans: (ns?: string) => olm(ns, 'installplans'),
  csvs: (ns?: string) => olm(ns, 'clusterserviceversions'),
  catalogSources: (ns?: string) => olm(ns, 'catalogsources'),
  clusterVersions: '/apis/config.openshift.io/v1/clusterversions',
  clusterOperators: '/apis/config.openshift.io/v1/clusteroperators',
  machineConfigPools: '/apis/machineconfiguration.openshift.io/v1/machineconfigpools',
  machineConfigs: '/apis/machineconfiguration.openshift.io/v1/machineconfigs',
  nodes: '/api/v1/nodes',
} as const;

function olm(ns: string | undefined, resource: string): string {
  return `/apis/operators.coreos.com/v1alpha1${ns ? `/namespaces/${ns}` : ''}/${resource}`;
}

/** The URL of a named object under a collection path. */
export function objectPath(collection: string, name: string): string {
  return `${collection}/${encodeURIComponent(name)}`;
}

/**
 * Lists a collection (following `continue`), with apiVersion/kind restored on the items;
 * `query` adds selectors (`fieldSelector`, `labelSelector`).
 */
export async function list(
  client: KubeClient,
  path: string,
  query: Record<string, string> = {},
): Promise<K8sObject[]> {
  const items: K8sObject[] = [];
  let token: string | undefined;
  do {
    const page = await client.request<{
      apiVersion: string;
      kind: string;
      items: K8sObject[];
      metadata: { continue?: string };
    }>('GET', path, { query: { ...query, limit: 500, continue: token } });
    const kind = page.kind.replace(/List$/, '');
    for (const item of page.items) items.push({ ...item, apiVersion: page.apiVersion, kind });
    token = page.metadata.continue || undefined;
  } while (token);
  return items;
}

/** GETs an object, `undefined` when it does not exist. */
export async function getOptional(client: KubeClient, path: string): Promise<K8sObject | undefined> {
  try {
    return await client.request<K8sObject>('GET', path);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** JSON merge patch (RFC 7386) of an object. */
export function mergePatch(client: KubeClient, path: string, patch: unknown): Promise<K8sObject> {
  return client.request<K8sObject>('PATCH', path, {
    body: patch,
    contentType: 'application/merge-patch+json',
  });
}

/** Deletes an object; a missing one is fine (someone else was faster). */
export async function deleteOptional(client: KubeClient, path: string): Promise<void> {
  try {
    await client.request('DELETE', path);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
