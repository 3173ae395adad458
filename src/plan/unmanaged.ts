import { OWNER_ANNOTATION } from '../core/annotations.js';
import { describeRef, refOf, type ObjectId, type ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { UnmanagedConfig, UnmanagedIgnore } from '../project/unmanaged-config.js';
import type { DriftItem } from './drift.js';
import { matchesPattern } from './name-pattern.js';
import type { Plan } from './plan-result.js';

/** An object in a namespace Groundwork manages that it did not apply and that nothing owns. */
export interface UnmanagedObject {
  id: ObjectId;
  ref: ObjectRef;
}

/** A kind in a namespace the report could not read (not served, cluster-scoped, forbidden, ...). */
export interface UnreadList {
  /** `group/Kind`, or `Kind` for the core group. */
  kind: string;
  namespace: string;
  reason: string;
}

/**
 * The unmanaged-objects report: what `unmanaged:` in groundwork.yaml asked to look at, found. Plain
 * data; informational unless `failOn`, when each object also counts as `extra` drift
 * (`unmanagedDrift`).
 */
export interface UnmanagedReport {
  failOn: boolean;
  /** Sorted by namespace, kind and name; at most `MAX_UNMANAGED`. */
  objects: readonly UnmanagedObject[];
  /** How many were found, listed or not. */
  total: number;
  /** How many of each kind in each namespace, of all found; sorted by namespace and kind. */
  counts: readonly UnmanagedCount[];
  /** Lists that could not be read: the report says nothing about them. */
  unread: readonly UnreadList[];
  /** More than `MAX_UNMANAGED` were found (the rest are not listed). */
  truncated?: boolean;
}

/** How many unmanaged objects of one kind one namespace holds. */
export interface UnmanagedCount {
  namespace: string;
  /** `group/Kind`, or `Kind` for the core group. */
  kind: string;
  count: number;
}

/** The most unmanaged objects one report holds. */
export const MAX_UNMANAGED = 2000;

/** A kind in a namespace to look at. */
export interface UnmanagedList {
  group: string;
  kind: string;
  namespace: string;
}

/** Objects every namespace gets from Kubernetes and OpenShift controllers: never unmanaged. */
const BUILTIN = [
  /^_?.*_kube-root-ca\.crt__ConfigMap$/,
  /_openshift-service-ca\.crt__ConfigMap$/,
  /_(default|builder|deployer)__ServiceAccount$/,
];

/** `group/Kind`, or `Kind` for the core group. */
export function kindName(group: string, kind: string): string {
  return group ? `${group}/${kind}` : kind;
}

/**
 * What the report looks at: for each namespace (`namespaces`, else those whose Namespace object
 * the platform declares) each kind (`kinds`, else the namespaced kinds the platform has objects
 * of there). Nothing when the setting does not ask for a report. Pure.
 */
export function unmanagedScope(plan: Plan, config: UnmanagedConfig): UnmanagedList[] {
  if (!config.report) return [];
  const desired = plan.items.filter((i) => i.desired);
  const namespaces =
    config.namespaces ??
    desired.filter((i) => i.ref.group === '' && i.ref.kind === 'Namespace').map((i) => i.ref.name);
  const out = new Map<string, UnmanagedList>();
  for (const namespace of [...new Set(namespaces)].sort()) {
    const kinds =
      config.kinds ??
      desired
        .filter((i) => i.ref.namespace === namespace)
        .map((i) => ({ group: i.ref.group, kind: i.ref.kind }));
    for (const k of kinds) out.set(`${namespace}|${k.group}|${k.kind}`, { ...k, namespace });
  }
  return [...out.values()];
}

/**
 * The unmanaged objects among `listed` (what the observation and any extra lists returned) in
 * `scope` (`unmanagedScope`): not desired, not in the inventory, owned by nothing
 * (`ownerReferences`), not another Groundwork inventory's (`groundwork.io/owning-inventory`), not
 * what Kubernetes puts in every namespace (`kube-root-ca.crt`, the default ServiceAccounts and
 * their tokens), not what controllers make without an owner (cert-manager's Secrets, leader
 * election records, Helm's release Secrets), not Groundwork's own (`app.kubernetes.io/managed-by:
 * groundwork`: its inventories), and matched by no `ignore` rule. Pure.
 */
export function findUnmanaged(
  plan: Plan,
  listed: ReadonlyMap<ObjectId, K8sObject>,
  scope: readonly UnmanagedList[],
  config: UnmanagedConfig,
  unread: readonly UnreadList[] = [],
): UnmanagedReport {
  const looked = new Set(scope.map((s) => `${s.namespace}|${s.group}|${s.kind}`));
  const known = new Set(plan.items.map((i) => i.id));
  const found: UnmanagedObject[] = [];
  for (const [id, obj] of listed) {
    const ref = refOf(obj);
    if (!looked.has(`${ref.namespace}|${ref.group}|${ref.kind}`) || known.has(id)) continue;
    if (ownedElsewhere(id, obj) || config.ignore.some((rule) => ignores(rule, ref))) continue;
    found.push({ id, ref });
  }
  found.sort((a, b) => describeRef(a.ref).localeCompare(describeRef(b.ref)));
  const counts = new Map<string, UnmanagedCount>();
  for (const { ref } of found) {
    const kind = kindName(ref.group, ref.kind);
    const key = `${ref.namespace}|${kind}`;
    const c = counts.get(key) ?? { namespace: ref.namespace, kind, count: 0 };
    c.count++;
    counts.set(key, c);
  }
  return {
    failOn: config.failOn,
    objects: found.slice(0, MAX_UNMANAGED),
    total: found.length,
    counts: [...counts.values()].sort((a, b) =>
      a.namespace === b.namespace ? a.kind.localeCompare(b.kind) : a.namespace.localeCompare(b.namespace),
    ),
    unread: [...unread],
    ...(found.length > MAX_UNMANAGED ? { truncated: true } : {}),
  };
}

/** The report's objects as `extra` drift when the team asked to fail on them (`failOn`); else none. */
export function unmanagedDrift(report: UnmanagedReport | undefined): DriftItem[] {
  if (!report?.failOn) return [];
  return report.objects.map((o) => ({ id: o.id, ref: o.ref, type: 'extra', fields: [] }));
}

/**
 * Annotations controllers put on what they make without an ownerReference: cert-manager's issued
 * Secrets (Argo CD's most reported false orphan) and client-go leader election's ConfigMaps and
 * Endpoints.
 */
const MADE_BY_CONTROLLER = ['cert-manager.io/certificate-name', 'control-plane.alpha.kubernetes.io/leader'];
/** Secret types controllers write: service-account tokens, Helm's release records. */
const CONTROLLER_SECRET_TYPES = new Set(['kubernetes.io/service-account-token', 'helm.sh/release.v1']);

function ownedElsewhere(id: ObjectId, obj: K8sObject): boolean {
  if (obj.metadata.ownerReferences?.length || BUILTIN.some((re) => re.test(id))) return true;
  // Groundwork's own bookkeeping (its inventory ConfigMaps) in a namespace the platform also manages.
  if (obj.metadata.labels?.['app.kubernetes.io/managed-by'] === 'groundwork') return true;
  const annotations = obj.metadata.annotations ?? {};
  if (annotations[OWNER_ANNOTATION] !== undefined || MADE_BY_CONTROLLER.some((a) => a in annotations))
    return true;
  return obj.kind === 'Secret' && CONTROLLER_SECRET_TYPES.has(String((obj as { type?: unknown }).type));
}

/** Whether every field the rule names matches (namespace and name as `*` patterns). */
function ignores(rule: UnmanagedIgnore, ref: ObjectRef): boolean {
  return (
    (rule.group === undefined || rule.group === ref.group) &&
    (rule.kind === undefined || rule.kind === ref.kind) &&
    (rule.namespace === undefined || matchesPattern(rule.namespace, ref.namespace)) &&
    (rule.name === undefined || matchesPattern(rule.name, ref.name))
  );
}
