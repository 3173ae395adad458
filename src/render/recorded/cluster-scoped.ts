import { z } from 'zod';
import { splitApiVersion, type K8sObject } from '../../core/object.js';

/**
 * Built-in cluster-scoped kinds (`group/Kind`, core group `/Kind`): Kubernetes' own and
 * OpenShift's config API. Everything else is taken as namespaced unless a CRD in the same render
 * says `scope: Cluster`.
 */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/VolumeAttributesClass',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'policy/PodSecurityPolicy',
  'resource.k8s.io/DeviceClass',
  'config.openshift.io/ClusterVersion',
  'config.openshift.io/ClusterOperator',
  'security.openshift.io/SecurityContextConstraints',
  'machineconfiguration.openshift.io/MachineConfig',
  'machineconfiguration.openshift.io/MachineConfigPool',
]);

/** The part of a CRD's spec that says the scope of its kind. */
const crdScopeSchema = z.object({
  scope: z.literal('Cluster'),
  group: z.string(),
  names: z.object({ kind: z.string() }),
});

/** `group/Kind` of every CRD among `objects` whose `spec.scope` is `Cluster`. Pure. */
export function clusterScopedCrdKinds(objects: readonly K8sObject[]): Set<string> {
  const kinds = new Set<string>();
  for (const o of objects) {
    if (o.kind !== 'CustomResourceDefinition' || !o.apiVersion.startsWith('apiextensions.k8s.io/')) continue;
    const spec = crdScopeSchema.safeParse(o.spec);
    if (spec.success) kinds.add(`${spec.data.group}/${spec.data.names.kind}`);
  }
  return kinds;
}

/** Whether `obj` is cluster-scoped: a built-in cluster-scoped kind, or one of `crdKinds`. Pure. */
export function isClusterScoped(
  obj: Pick<K8sObject, 'apiVersion' | 'kind'>,
  crdKinds: ReadonlySet<string>,
): boolean {
  const key = `${splitApiVersion(obj.apiVersion).group}/${obj.kind}`;
  return CLUSTER_SCOPED.has(key) || crdKinds.has(key);
}
