import { isPlainObject, type K8sObject } from '../core/object.js';
import { parsePointer, withoutPointers, type Path } from './json-pointer.js';
import { appliedPaths, hasManagedPath, ownersOf, type ManagedStep } from './managed-fields.js';
import { sameQuantityIn } from './quantity.js';

/** What `isSubset` may consult to accept a zero value the server dropped (see `looksUnchanged`). */
interface SubsetContext {
  /** The whole live object, for managedFields. */
  liveRoot: K8sObject;
  /** The manager whose applied fields count as present. */
  manager: string;
}

/**
 * True when every field `desired` sets is present in `live` with an equal value. Extra live
 * fields (server defaults, CRD schema defaults, other managers' fields, status) do not matter.
 * Lists must have the same length and match element by element. Quantities compare by value.
 * With a context, a zero value (`0`, `false`, `""`, `[]`, `{}`) that live lacks counts as present
 * when `manager` owns that field: the server drops zero values of `omitempty` fields
 * (`minReadySeconds: 0`) but keeps them in the applier's managedFields.
 */
export function isSubset(desired: unknown, live: unknown, ctx?: SubsetContext): boolean {
  return subset(desired, live, [], ctx);
}

function subset(desired: unknown, live: unknown, path: Path, ctx: SubsetContext | undefined): boolean {
  if (live === undefined && ctx && isZero(desired)) return ownersOf(ctx.liveRoot, path).includes(ctx.manager);
  if (Array.isArray(desired)) {
    return (
      Array.isArray(live) &&
      desired.length === live.length &&
      desired.every((d, i) => subset(d, live[i], [...path, i], ctx))
    );
  }
  if (isPlainObject(desired)) {
    return (
      isPlainObject(live) && Object.entries(desired).every(([k, v]) => subset(v, live[k], [...path, k], ctx))
    );
  }
  // Resource quantities are canonicalized by the server (`1000m` -> `1`, `1024Mi` -> `1Gi`).
  return desired === live || sameQuantityIn(path[path.length - 2], desired, live);
}

function isZero(v: unknown): boolean {
  if (v === 0 || v === false || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
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
 * A Secret's `stringData` is compared as the `data` the server turns it into.
 */
export function looksUnchanged(
  desired: K8sObject,
  live: K8sObject,
  opts: { manager: string; ignore: readonly string[] },
): boolean {
  const d = withoutPointers(asStored(desired), opts.ignore);
  const l = withoutPointers(live, opts.ignore);
  return (
    isSubset(d, l, { liveRoot: live, manager: opts.manager }) &&
    removedFields(desired, live, opts.manager, opts.ignore).length === 0
  );
}

/** A v1 Secret with `stringData` folded into base64 `data`, as the apiserver stores it; other objects as they are. */
export function asStored(obj: K8sObject): K8sObject {
  const stringData = (obj as { stringData?: Record<string, string> }).stringData;
  if (obj.kind !== 'Secret' || obj.apiVersion !== 'v1' || !isPlainObject(stringData)) return obj;
  const { stringData: _s, ...rest } = obj as K8sObject & { data?: Record<string, string> };
  const encoded = Object.fromEntries(
    Object.entries(stringData).map(([k, v]) => [k, Buffer.from(String(v), 'utf8').toString('base64')]),
  );
  return { ...rest, data: { ...(rest.data ?? {}), ...encoded } } as K8sObject;
}
