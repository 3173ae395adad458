import type { KubeClient } from '../cluster/client.js';
import { installCrds } from '../cluster/crds.js';
import type { K8sObject } from '../core/object.js';
import { hubObjects, type HubInstallSpec } from './hub-objects.js';

const FIELD_MANAGER = 'groundwork-hub';

/** The REST path of one of the hub's own objects (`hubObjects` holds these kinds only). */
function hubObjectPath(obj: K8sObject): string {
  const { name, namespace } = obj.metadata;
  const ns = `/namespaces/${namespace ?? ''}`;
  switch (obj.kind) {
    case 'Namespace':
      return `/api/v1/namespaces/${name}`;
    case 'ServiceAccount':
      return `/api/v1${ns}/serviceaccounts/${name}`;
    case 'ClusterRole':
      return `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`;
    case 'ClusterRoleBinding':
      return `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${name}`;
    case 'Role':
      return `/apis/rbac.authorization.k8s.io/v1${ns}/roles/${name}`;
    case 'RoleBinding':
      return `/apis/rbac.authorization.k8s.io/v1${ns}/rolebindings/${name}`;
    case 'Deployment':
      return `/apis/apps/v1${ns}/deployments/${name}`;
    default:
      throw new Error(`hubObjectPath: ${obj.kind} is not one of the hub's kinds`);
  }
}

/**
 * Installs the hub on the cluster of `client` (admin rights): the CRDs (waited for until
 * Established), then every other object of `hubObjects(spec)` in order, each with a forced
 * server-side apply (field manager `groundwork-hub`), so installing again updates in place. What
 * `groundwork hub up` runs against the embedded control plane.
 */
export async function installHub(client: KubeClient, spec: HubInstallSpec): Promise<void> {
  const objects = hubObjects(spec);
  await installCrds(
    client,
    objects.filter((o) => o.kind === 'CustomResourceDefinition'),
    { fieldManager: FIELD_MANAGER },
  );
  for (const obj of objects.filter((o) => o.kind !== 'CustomResourceDefinition'))
    await client.request('PATCH', hubObjectPath(obj), {
      body: obj,
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: FIELD_MANAGER, force: true },
    });
}
