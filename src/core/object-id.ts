import { splitApiVersion, type K8sObject } from './object.js';

/**
 * Identity of an object across desired state, the live cluster and the inventory.
 *
 * Frozen format (inventory v1, same as kubernetes-sigs/cli-utils `ObjMetadata`):
 * `<namespace>_<name>_<group>_<kind>`, with an empty namespace for cluster-scoped
 * objects and an empty group for the core API group, e.g. `_openshift-gitops__Namespace`
 * or `openshift-gitops_gitops_operators.coreos.com_Subscription`.
 * Kubernetes names cannot contain `_`, so the four fields split unambiguously.
 * The version is deliberately not part of the id: an object keeps its identity when
 * its apiVersion moves from v1beta1 to v1.
 */
export interface ObjectRef {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

export type ObjectId = string;

export function refOf(obj: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>): ObjectRef {
  return {
    group: splitApiVersion(obj.apiVersion).group,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name,
  };
}

export function idOfRef(ref: ObjectRef): ObjectId {
  return `${ref.namespace}_${ref.name}_${ref.group}_${ref.kind}`;
}

export function idOf(obj: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>): ObjectId {
  return idOfRef(refOf(obj));
}

/** Parses an id back into its parts; throws on anything but exactly four fields. */
export function parseId(id: ObjectId): ObjectRef {
  const parts = id.split('_');
  if (parts.length !== 4 || !parts[1] || !parts[3]) {
    throw new Error(`invalid object id ${JSON.stringify(id)}: want <namespace>_<name>_<group>_<kind>`);
  }
  const [namespace, name, group, kind] = parts as [string, string, string, string];
  return { namespace, name, group, kind };
}

// Loose on purpose: accepts every id of an object the server can hold (RBAC names may hold `:` or
// spaces), rejects what no object can have and what would break a line-based list or a request path.
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const GROUP = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const KIND = /^[A-Za-z]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?$/;
// eslint-disable-next-line no-control-regex
const NAME_FORBIDDEN = /[/%\u0000-\u001f\u007f]/;

/**
 * True when `id` is a well-formed object id of something the server could hold: four fields, a
 * DNS-label namespace (or none), a name that is a valid path segment (no `/`, `%`, control
 * characters, not `.` or `..`, at most 253 characters), a DNS-subdomain group (or none) and an
 * alphanumeric kind. Never throws; says nothing about whether the object exists.
 */
export function isValidId(id: string): boolean {
  const parts = id.split('_');
  if (parts.length !== 4) return false;
  const [namespace, name, group, kind] = parts as [string, string, string, string];
  return (
    (namespace === '' || NAMESPACE.test(namespace)) &&
    name.length > 0 &&
    name.length <= 253 &&
    name !== '.' &&
    name !== '..' &&
    !NAME_FORBIDDEN.test(name) &&
    (group === '' || GROUP.test(group)) &&
    KIND.test(kind)
  );
}

/** Human form used in messages: `Kind/namespace/name` or `Kind/name`. */
export function describeRef(ref: ObjectRef): string {
  return ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}

export function describe(obj: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>): string {
  return describeRef(refOf(obj));
}
