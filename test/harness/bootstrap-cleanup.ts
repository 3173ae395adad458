import { INVENTORY_NAMESPACE, inventoryName } from '../../src/apply/inventory.js';
import type { KubeClient } from '../../src/cluster/client.js';
import type { BootstrapPlan } from '../../src/install/bootstrap.js';

/**
 * Deletes what a bootstrap plan put outside the test's namespace: the agent's ClusterRole and its
 * binding, its Role and binding in the inventory namespace, and the platform's inventory ConfigMap
 * for `overlay`. Each delete may fail (already gone).
 */
export async function removeBootstrapLeftovers(
  admin: KubeClient,
  plan: BootstrapPlan,
  overlay: string,
): Promise<void> {
  const name = plan.objects.find((o) => o.kind === 'PlatformSync')!.metadata.name;
  for (const path of [
    `/apis/rbac.authorization.k8s.io/v1/clusterroles/groundwork:${name}`,
    `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/groundwork:${name}`,
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${INVENTORY_NAMESPACE}/roles/groundwork:${name}`,
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${INVENTORY_NAMESPACE}/rolebindings/groundwork:${name}`,
    `/api/v1/namespaces/${INVENTORY_NAMESPACE}/configmaps/${inventoryName(plan.platform.platform, overlay)}`,
  ])
    await admin.request('DELETE', path).catch(() => undefined);
}
