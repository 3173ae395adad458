import { describeRef, parseId, type ObjectId } from '../core/object-id.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import { parsePointer } from '../plan/json-pointer.js';
import { ownersOf } from '../plan/managed-fields.js';
import { redactSecret } from '../core/redact.js';
import type { DriftStatus } from '../report/sync-status-schema.js';
import type { DriftRow } from './snapshot.js';

/** Longest live value shown on the Drift page; the rest is cut with an ellipsis. */
export const VALUE_LIMIT = 200;

/**
 * The Drift page's rows: each item of the agent's drift report (`status.drift`, field paths only)
 * with the live value at each path, read from the cached object after `redactSecret` (a Secret's
 * data shows as keyed hashes, never values), and the managers owning that field
 * (`metadata.managedFields`): who changed it; and git's value at each path when `desired` knows the
 * object (the agent's desired objects, Secret values already keyed hashes: see `DesiredObjects`).
 * Pure.
 */
export function driftRows(
  drift: DriftStatus | undefined,
  ids: Iterable<ObjectId>,
  live: (id: ObjectId) => K8sObject | undefined,
  desired?: (id: ObjectId) => K8sObject | undefined,
): DriftRow[] {
  const byName = new Map<string, ObjectId>();
  for (const id of ids) {
    try {
      byName.set(describeRef(parseId(id)), id);
    } catch {
      // not an object id: nothing to link
    }
  }
  return (drift?.items ?? []).map((item) => {
    const id = byName.get(item.object);
    const raw = id ? live(id) : undefined;
    const obj = raw ? redactSecret(raw) : undefined;
    const git = id ? desired?.(id) : undefined;
    return {
      object: item.object,
      id,
      type: item.type,
      fields: item.fields.map((path) => {
        const segments = safePointer(path);
        const gitValue = git && segments ? shorten(valueAt(git, segments)) : undefined;
        return {
          path,
          live: obj && segments ? shorten(valueAt(obj, segments)) : undefined,
          ...(gitValue !== undefined ? { git: gitValue } : {}),
          managers: raw && segments ? ownersOf(raw, segments) : [],
        };
      }),
    };
  });
}

function safePointer(pointer: string): string[] | undefined {
  try {
    return parsePointer(pointer);
  } catch {
    return undefined;
  }
}

function valueAt(obj: unknown, path: readonly string[]): unknown {
  let node = obj;
  for (const seg of path) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isPlainObject(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

/** `value` as JSON, cut to `VALUE_LIMIT` characters with an ellipsis; undefined for undefined. */
export function shorten(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  return text.length > VALUE_LIMIT ? `${text.slice(0, VALUE_LIMIT - 1)}…` : text;
}
