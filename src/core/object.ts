/**
 * The plain shape of a Kubernetes object as Groundwork handles it: JSON data,
 * never a typed client model, so nothing is lost or reordered on the way.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: K8sMetadata;
  [field: string]: unknown;
}

export interface K8sMetadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  finalizers?: string[];
  [field: string]: unknown;
}

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** A condition as Kubernetes and OpenShift APIs write it. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** Splits `group/version` (or `v1`) into its parts; the core group is `''`. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Reads a condition by type from `status.conditions`, if any. */
export function findCondition(obj: object | undefined, type: string): Condition | undefined {
  const conditions = (obj as { status?: { conditions?: Condition[] } } | undefined)?.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c) => c?.type === type) : undefined;
}

/** True when `value` is a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
