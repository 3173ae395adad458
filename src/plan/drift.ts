import { describeRef, refOf, type ObjectId, type ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { isOwnershipStamp } from './ownership.js';
import { heldBy } from './terminating-namespaces.js';
import type { Plan } from './plan-result.js';

/** One drifted field: what git says, what the cluster has, and who wrote it. */
interface DriftField {
  path: string;
  expected: unknown;
  actual: unknown;
  /** Field manager that owns the live value (e.g. `kubectl-edit`), when known. */
  manager?: string;
}

/**
 * A drifted object. Closed vocabulary:
 * - `missing`: desired, not in the cluster;
 * - `modified`: in the cluster with fields that differ from desired (a Namespace being deleted:
 *   `/metadata/deletionTimestamp`, and what holds it);
 * - `extra`: in a namespace Groundwork manages, of a kind it manages, but not in git and not owned by anything.
 */
export interface DriftItem {
  id: ObjectId;
  ref: ObjectRef;
  type: 'missing' | 'modified' | 'extra';
  fields: DriftField[];
}

/** The field of a drifted object being deleted (a Namespace held by a finalizer). */
export const DELETION_PATH = '/metadata/deletionTimestamp';

/** Objects every namespace gets from Kubernetes/OpenShift controllers: never "extra". */
const BUILTIN = [
  /^_?.*_kube-root-ca\.crt__ConfigMap$/,
  /_openshift-service-ca\.crt__ConfigMap$/,
  /_(default|builder|deployer)__ServiceAccount$/,
];

/**
 * Drift from a plan (whose diffs come from a forced server-side dry-run, so server defaults and
 * normalization never show up as drift) plus what the lists returned. An object whose only
 * difference is a missing ownership annotation (applied before it existed) is not drifted. Pure.
 */
export function detectDrift(plan: Plan, listed: ReadonlyMap<ObjectId, K8sObject>): DriftItem[] {
  const out: DriftItem[] = [];
  const desired = new Set<ObjectId>();
  const managedNamespaces = new Set<string>();
  const managedKinds = new Set<string>();
  for (const i of plan.items) {
    if (!i.desired) continue;
    desired.add(i.id);
    if (i.ref.kind === 'Namespace' && i.ref.group === '') managedNamespaces.add(i.ref.name);
    managedKinds.add(`${i.ref.group}/${i.ref.kind}`);
    if (i.action === 'create') out.push({ id: i.id, ref: i.ref, type: 'missing', fields: [] });
    // A desired Namespace being deleted differs from git by its deletion, and says what holds it.
    if (i.reason === 'NamespaceTerminating' && i.live)
      out.push({
        id: i.id,
        ref: i.ref,
        type: 'modified',
        fields: [
          { path: DELETION_PATH, expected: undefined, actual: i.live.metadata.deletionTimestamp },
          { path: '/status/conditions', expected: undefined, actual: `held by ${heldBy(i.live)}` },
        ],
      });
    // The ownership annotation is Groundwork's bookkeeping, not git's: a missing one is no drift.
    const diff = i.diff.filter((d) => !isOwnershipStamp(d));
    if ((i.action === 'update' || i.action === 'adopt') && diff.length > 0) {
      out.push({
        id: i.id,
        ref: i.ref,
        type: 'modified',
        // Plan diffs are already redacted for Secrets (values replaced by short hashes).
        fields: diff.map((d) => ({
          path: d.path,
          expected: d.after,
          actual: d.before,
          ...(d.owners?.[0] ? { manager: d.owners[0] } : {}),
        })),
      });
    }
  }
  const inventoried = new Set(plan.items.map((i) => i.id));
  for (const [id, obj] of listed) {
    const ref = refOf(obj);
    if (desired.has(id) || inventoried.has(id)) continue;
    if (!managedNamespaces.has(ref.namespace) || !managedKinds.has(`${ref.group}/${ref.kind}`)) continue;
    if (obj.metadata.ownerReferences?.length || BUILTIN.some((re) => re.test(id))) continue;
    if (obj.kind === 'Secret' && (obj as { type?: string }).type === 'kubernetes.io/service-account-token')
      continue;
    out.push({ id, ref, type: 'extra', fields: [] });
  }
  return out.sort((a, b) =>
    a.type === b.type ? describeRef(a.ref).localeCompare(describeRef(b.ref)) : a.type.localeCompare(b.type),
  );
}
