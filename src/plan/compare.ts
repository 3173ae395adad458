import { isPlainObject, type K8sObject } from '../core/object.js';
import { sameQuantityIn } from './quantity.js';
import { parsePointer, withoutPointers } from './json-pointer.js';
import { appliedPaths, hasManagedPath, type ManagedStep } from './managed-fields.js';

/**
 * True when every field `desired` sets is present in `live` with an equal value. Extra live
 * fields (server defaults, CRD schema defaults, other managers' fields, status) do not matter.
 * Lists must have the same length and match element by element.
 */
export function isSubset(desired: unknown, live: unknown, ownKey = '', containerKey = ''): boolean {
  if (Array.isArray(desired)) {
    return (
      Array.isArray(live) && desired.length === live.length && desired.every((d, i) => isSubset(d, live[i]))
    );
  }
  if (isPlainObject(desired)) {
    return isPlainObject(live) && Object.entries(desired).every(([k, v]) => isSubset(v, live[k], k, ownKey));
  }
  // Resource quantities are canonicalized by the server (`1000m` -> `1`, `1024Mi` -> `1Gi`).
  return desired === live || sameQuantityIn(containerKey, desired, live);
}

/**
 * Fields that `manager` applied earlier and `desired` no longer sets: server-side apply removes
 * them on the next apply, so their presence is a change.
 */
export function removedFields(
  desired: K8sObject,
  live: K8sObject,
  manager: string,
  ignore: readonly string[] = [],
): ManagedStep[][] {
  const ignored = ignore.map(parsePointer);
  return appliedPaths(live, manager).filter(
    (path) => !hasManagedPath(desired, path) && !ignored.some((p) => p.every((seg, i) => path[i] === seg)),
  );
}

/**
 * The cheap, request-free no-op test used before any dry-run: desired ⊆ live and nothing
 * previously applied was removed. `false` does not mean "changed" — only that a server-side
 * dry-run must decide (defaults and normalization, e.g. `1000m` → `1`, are the server's to apply).
 */
export function looksUnchanged(
  desired: K8sObject,
  live: K8sObject,
  opts: { manager: string; ignore: readonly string[] },
): boolean {
  const d = withoutPointers(desired, opts.ignore);
  const l = withoutPointers(live, opts.ignore);
  return isSubset(d, l) && removedFields(d, live, opts.manager, opts.ignore).length === 0;
}
