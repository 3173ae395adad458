import { splitApiVersion, type K8sObject } from '../core/object.js';
import { catalogSourceHealth } from './catalog-source.js';
import { clusterOperatorHealth } from './cluster-operator.js';
import { clusterServiceVersionHealth } from './cluster-service-version.js';
import { clusterVersionHealth } from './cluster-version.js';
import { customResourceDefinitionHealth } from './custom-resource-definition.js';
import { daemonSetHealth } from './daemon-set.js';
import { deploymentHealth } from './deployment.js';
import { genericHealth } from './generic.js';
import { installPlanHealth } from './install-plan.js';
import { jobHealth } from './job.js';
import { machineConfigPoolHealth } from './machine-config-pool.js';
import { namespaceHealth } from './namespace.js';
import { persistentVolumeClaimHealth } from './persistent-volume-claim.js';
import { podHealth } from './pod.js';
import { replicaSetHealth } from './replica-set.js';
import { serviceHealth } from './service.js';
import { statefulSetHealth } from './stateful-set.js';
import { subscriptionHealth } from './subscription.js';
import { verdict, type HealthCheck, type HealthVerdict } from './types.js';

export * from './types.js';
export { rollUp } from './roll-up.js';
export { assessClusterUpdate, type ClusterUpdateInput, type ClusterUpdateHealth } from './cluster-update.js';
export type { ClusterUpdateReason } from './cluster-update-summary.js';
export {
  catalogSourceHealth,
  clusterOperatorHealth,
  clusterServiceVersionHealth,
  clusterVersionHealth,
  customResourceDefinitionHealth,
  daemonSetHealth,
  deploymentHealth,
  genericHealth,
  installPlanHealth,
  jobHealth,
  machineConfigPoolHealth,
  namespaceHealth,
  persistentVolumeClaimHealth,
  podHealth,
  replicaSetHealth,
  serviceHealth,
  statefulSetHealth,
  subscriptionHealth,
};

/**
 * The dedicated check per kind, keyed `Kind.group` (`Kind` alone for the core group), as kubectl
 * names resources. Versions are not part of the key: a check reads fields every served version has.
 */
export const HEALTH_CHECKS: ReadonlyMap<string, HealthCheck> = new Map<string, HealthCheck>([
  ['Deployment.apps', deploymentHealth],
  ['StatefulSet.apps', statefulSetHealth],
  ['DaemonSet.apps', daemonSetHealth],
  ['ReplicaSet.apps', replicaSetHealth],
  ['Pod', podHealth],
  ['PersistentVolumeClaim', persistentVolumeClaimHealth],
  ['Service', serviceHealth],
  ['Job.batch', jobHealth],
  ['CustomResourceDefinition.apiextensions.k8s.io', customResourceDefinitionHealth],
  ['Namespace', namespaceHealth],
  ['Subscription.operators.coreos.com', subscriptionHealth],
  ['ClusterServiceVersion.operators.coreos.com', clusterServiceVersionHealth],
  ['InstallPlan.operators.coreos.com', installPlanHealth],
  ['CatalogSource.operators.coreos.com', catalogSourceHealth],
  ['ClusterVersion.config.openshift.io', clusterVersionHealth],
  ['ClusterOperator.config.openshift.io', clusterOperatorHealth],
  ['MachineConfigPool.machineconfiguration.openshift.io', machineConfigPoolHealth],
]);

/** The check for a group and kind: the dedicated one from `HEALTH_CHECKS`, else `genericHealth`. */
export function healthCheckFor(group: string, kind: string): HealthCheck {
  return HEALTH_CHECKS.get(group ? `${kind}.${group}` : kind) ?? genericHealth;
}

/**
 * The health verdict of one object, computed from the object alone (no I/O).
 *
 * An object with `metadata.deletionTimestamp` is `Progressing` (Terminating) whatever its kind,
 * naming the finalizers it waits for, except a Namespace (see `namespaceHealth`); otherwise the kind's check from `healthCheckFor` decides.
 * It does not judge objects the given one depends on or owns: roll those up with `rollUp`.
 * Checks that depend on time (a pod unschedulable for more than kstatus' 15 s) judge at `now`,
 * by default the time of the call; pass it to judge a recorded object or in a test.
 *
 * @example assessHealth(subscription) // { status: 'Healthy', reason: 'AtLatestKnown', message: '…' }
 */
export function assessHealth(obj: K8sObject, opts: { readonly now?: Date } = {}): HealthVerdict {
  const deleting = obj.metadata.deletionTimestamp;
  // A Namespace says what holds its deletion in its status (its finalizers are in spec).
  if (deleting && !(obj.apiVersion === 'v1' && obj.kind === 'Namespace')) {
    const finalizers = obj.metadata.finalizers ?? [];
    const waiting = finalizers.length > 0 ? `; waiting for finalizers ${finalizers.join(', ')}` : '';
    return verdict('Progressing', 'Terminating', `being deleted since ${deleting}${waiting}`);
  }
  return healthCheckFor(splitApiVersion(obj.apiVersion).group, obj.kind)(obj, {
    now: opts.now ?? new Date(),
  });
}
