import { OWNER_ANNOTATION } from '../core/annotations.js';
import type { K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';
import type { FieldDiff } from './field-diff.js';
import { toPointer } from './json-pointer.js';

/**
 * Whether a live object belongs to this inventory, so that prune may delete it. The inventory
 * ConfigMap only says what to look at: anyone who can write ConfigMaps in its namespace can add
 * ids to it. The decision rests on the object's own record (as kubernetes-sigs/cli-utils'
 * `config.k8s.io/owning-inventory`, Flux's owner labels, kapp's app label).
 */
type Ownership = { owned: true; by: 'annotation' | 'field-manager' } | { owned: false; message: string };

interface OwnershipOptions {
  /**
   * This inventory, `<namespace>/<name>` of its ConfigMap (see `inventoryOwner`). Absent: no
   * annotation matches, so only the field-manager rule can make an object owned.
   */
  owner?: string;
  /** The field manager Groundwork applies with (`FIELD_MANAGER`). */
  fieldManager: string;
}

/**
 * Ownership of a prune candidate:
 * - annotated `groundwork.io/owning-inventory`: owned exactly when it names this inventory (one
 *   platform or overlay never prunes another's objects);
 * - not annotated (applied by a version before the annotation, which the next apply adds): owned
 *   when Groundwork's field manager server-side applied it (an `Apply` entry in managedFields),
 *   except in the inventory's namespace, where Groundwork also writes its own bookkeeping with
 *   that manager and where whoever forges inventory entries can write: there only the annotation counts.
 * Never reads anything but `live`.
 */
export function ownershipOf(live: K8sObject, opts: OwnershipOptions): Ownership {
  const named = live.metadata.annotations?.[OWNER_ANNOTATION];
  if (named !== undefined) {
    if (named === opts.owner) return { owned: true, by: 'annotation' };
    return {
      owned: false,
      message: `not pruned: it belongs to inventory ${quoted(named)} (${OWNER_ANNOTATION}), not to this one; dropped from this inventory`,
    };
  }
  const home = opts.owner?.split('/')[0];
  const inHome =
    home !== undefined &&
    (live.metadata.namespace === home ||
      (live.apiVersion === 'v1' && live.kind === 'Namespace' && live.metadata.name === home));
  if (!inHome && appliedBy(live, opts.fieldManager)) return { owned: true, by: 'field-manager' };
  return {
    owned: false,
    message: `not pruned: nothing on it says Groundwork applied it (no ${OWNER_ANNOTATION} annotation${inHome ? ', required in the inventory namespace' : `, no server-side apply by field manager ${opts.fieldManager}`}); dropped from the inventory. Delete it by hand if it should go`,
  };
}

/** True when `manager` server-side applied some field of the object (not a status-only write). */
export function appliedBy(live: K8sObject, manager: string): boolean {
  return (live.metadata.managedFields ?? []).some(
    (e) => e.manager === manager && e.operation === 'Apply' && e.subresource !== 'status',
  );
}

/**
 * Manifests with this inventory's ownership annotation set, as the engine plans, dry-runs and
 * applies them (a value a construct set is replaced). `hash` stays synth's: it names what git
 * declared. Returns new manifests; the input is not modified.
 */
export function withOwner(manifests: readonly Manifest[], owner: string): Manifest[] {
  return manifests.map((m) => ({
    ...m,
    object: {
      ...m.object,
      metadata: {
        ...m.object.metadata,
        annotations: { ...(m.object.metadata.annotations ?? {}), [OWNER_ANNOTATION]: owner },
      },
    },
  }));
}

const OWNER_PATH = toPointer(['metadata', 'annotations', OWNER_ANNOTATION]);

/**
 * True when a plan diff only adds or changes the ownership annotation: Groundwork's bookkeeping,
 * not a difference from git (drift ignores it; the next apply writes it).
 */
export function isOwnershipStamp(d: FieldDiff): boolean {
  if (d.path === OWNER_PATH) return d.op !== 'remove';
  const after = d.after as Record<string, unknown> | undefined;
  return (
    d.path === '/metadata/annotations' &&
    d.op === 'add' &&
    after !== undefined &&
    Object.keys(after).length === 1 &&
    OWNER_ANNOTATION in after
  );
}

/** A value from a live object, for a message: JSON-quoted (control characters escaped), at most 80 characters. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
