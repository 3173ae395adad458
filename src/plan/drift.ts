import { describeRef, type ObjectId, type ObjectRef } from '../core/object-id.js';
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
 * - `extra`: in a namespace Groundwork manages, not in git, not applied by Groundwork and owned by
 *   nothing; drift only where groundwork.yaml asks for it (`unmanaged: { failOn: true }`), else
 *   listed apart, informational (`UnmanagedReport`, src/plan/unmanaged.ts).
 */
export interface DriftItem {
  id: ObjectId;
  ref: ObjectRef;
  type: 'missing' | 'modified' | 'extra';
  fields: DriftField[];
}

/** The field of a drifted object being deleted (a Namespace held by a finalizer). */
export const DELETION_PATH = '/metadata/deletionTimestamp';

/**
 * Drift from a plan (whose diffs come from a forced server-side dry-run, so server defaults and
 * normalization never show up as drift): what Groundwork applies, `missing` or `modified`. An
 * object whose only difference is a missing ownership annotation (applied before it existed) is
 * not drifted. Objects it does not apply are never drift here: those in its namespaces are the
 * unmanaged report's (`findUnmanaged`), drift only when the team asks (`unmanagedDrift`). Pure.
 */
export function detectDrift(plan: Plan): DriftItem[] {
  const out: DriftItem[] = [];
  for (const i of plan.items) {
    if (!i.desired) continue;
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
  return out.sort(compareDrift);
}

/** The order drift is listed in: by type (`extra`, `missing`, `modified`), then by object. */
export function compareDrift(a: DriftItem, b: DriftItem): number {
  return a.type === b.type
    ? describeRef(a.ref).localeCompare(describeRef(b.ref))
    : a.type.localeCompare(b.type);
}
