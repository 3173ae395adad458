import { policyOf } from '../core/annotations.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import { asStored } from './compare.js';
import { diffValues, type FieldDiff } from './field-diff.js';
import { parsePointer, withoutPointers } from './json-pointer.js';
import { ownersOf } from './managed-fields.js';
import { normalize } from './normalize.js';
import { redactSecret } from '../core/redact.js';

/**
 * A desired object as it can be shown and compared: a v1 Secret's `stringData` folded into the
 * base64 `data` the apiserver stores (`asStored`), then every Secret value replaced by its keyed
 * hash (`redactSecret`), so that a desired and a live Secret holding the same value show the same
 * tag. Other kinds come back as they are (the same object, not a copy). Pure but for the process's
 * redaction key.
 */
export function redactDesired(desired: K8sObject): K8sObject {
  return redactSecret(asStored(desired));
}

/**
 * The differences between `desired` and `live` in the fields git sets, as `plan` shows them
 * (`diffValues`, the planner's diff, from live to desired; owners from `managedFields`), without a
 * server-side dry-run: live is first cut down to the fields `desired` sets, so server defaults,
 * other managers' fields, status and server metadata are never differences, and list elements are
 * compared by position (extra live elements are `remove`s). Fields the object's
 * `groundwork.io/ignore-differences` names are left out, as the planner leaves them out. A zero value
 * (`0`, `false`, `""`, `[]`, `{}`) that live lacks while `manager` owns the field is no difference:
 * the server drops zero values of `omitempty` fields.
 *
 * Does not redact: pass both objects redacted the same way (`redactDesired`, `redactSecret`). Does
 * not see what only the server knows (defaulting of fields git sets, admission webhooks' changes,
 * fields `manager` applied before and git no longer sets): the plan's dry-run does. Pure.
 */
export function desiredDiff(desired: K8sObject, live: K8sObject, opts: { manager: string }): FieldDiff[] {
  const ignore = policyOf(desired).ignorePointers;
  const after = withoutPointers(normalize(asStored(desired)), ignore);
  const before = project(withoutPointers(normalize(live), ignore), after);
  return diffValues(before, after).flatMap((d) => {
    const path = parsePointer(d.path);
    const owners = ownersOf(live, path);
    if (d.op === 'add') return isZero(d.after) && owners.includes(opts.manager) ? [] : [d];
    return [owners.length ? { ...d, owners } : d];
  });
}

/** `live` with only the object keys `shape` has, at every depth; lists element by element. */
function project(live: unknown, shape: unknown): unknown {
  if (isPlainObject(live) && isPlainObject(shape)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(shape)) if (live[k] !== undefined) out[k] = project(live[k], shape[k]);
    return out;
  }
  if (Array.isArray(live) && Array.isArray(shape))
    return live.map((l: unknown, i) => (i < shape.length ? project(l, shape[i]) : l));
  return live;
}

function isZero(v: unknown): boolean {
  if (v === 0 || v === false || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}
