import { describeRef, parseId, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { stageIndex, stageOf } from '../core/stages.js';
import { assessHealth } from '../health/index.js';
import { verdict } from '../health/types.js';
import type { DriftStatus } from '../report/sync-status-schema.js';
import type { ObjectRow } from './snapshot.js';

/** What the caches know of an object: the object, known absent, or not known (kind not cached). */
export type LiveLookup = (id: ObjectId) => K8sObject | 'absent' | 'unknown';

/**
 * The Objects page's rows: each inventory entry with its stage (the stage table, by group and kind),
 * its health verdict (`assessHealth` of the live object; `Missing` when absent, `Unknown` while its
 * kind is not cached) and the drift the agent reported for it. Sorted in apply order, then by id.
 * Pure; entries that are not object ids are skipped (the inventory reader already drops them).
 */
export function objectRows(ids: Iterable<ObjectId>, live: LiveLookup, drift?: DriftStatus): ObjectRow[] {
  const drifted = new Map((drift?.items ?? []).map((i) => [i.object, i] as const));
  const rows: ObjectRow[] = [];
  for (const id of ids) {
    let ref;
    try {
      ref = parseId(id);
    } catch {
      continue;
    }
    const obj = live(id);
    const health =
      obj === 'absent'
        ? verdict('Missing', 'NotFound', 'not in the cluster')
        : obj === 'unknown'
          ? verdict('Unknown', 'NotObserved', 'its kind is not watched (not served, or the watch is down)')
          : assessHealth(obj);
    const pseudo = {
      apiVersion: ref.group ? `${ref.group}/v1` : 'v1',
      kind: ref.kind,
      metadata: {
        name: ref.name,
        ...(typeof obj === 'object' && obj.metadata.annotations
          ? { annotations: obj.metadata.annotations }
          : {}),
      },
    };
    const d = drifted.get(describeRef(ref));
    rows.push({
      id,
      ref,
      stage: stageOf(pseudo),
      health,
      ...(d ? { drift: { type: d.type, fields: d.fields } } : {}),
    });
  }
  return rows.sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage) || a.id.localeCompare(b.id));
}

/** The filters of the Objects page (query parameters; empty means any). */
export interface ObjectFilter {
  kind?: string;
  namespace?: string;
  health?: string;
  /** Case-insensitive substring of the kind, namespace, name or health reason. */
  text?: string;
}

/** The rows `filter` keeps. Pure. */
export function filterRows(rows: readonly ObjectRow[], filter: ObjectFilter): ObjectRow[] {
  const text = filter.text?.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!filter.kind || r.ref.kind === filter.kind) &&
      (!filter.namespace || r.ref.namespace === filter.namespace) &&
      (!filter.health || r.health.status === filter.health) &&
      (!text ||
        [r.ref.kind, r.ref.namespace, r.ref.name, r.health.reason, r.health.message].some((f) =>
          f.toLowerCase().includes(text),
        )),
  );
}
