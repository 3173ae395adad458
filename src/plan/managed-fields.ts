import { isPlainObject, type K8sObject, type ManagedFieldsEntry } from '../core/object.js';
import type { Path } from './json-pointer.js';

/**
 * Reading `metadata.managedFields` (FieldsV1): which manager owns which field of a live object.
 * FieldsV1 keys are `f:<field>`, `k:<json key of a list item>`, `v:<json value of a set item>`,
 * `i:<index>` and `.` (the node itself).
 */

/**
 * Managers owning exactly `path` (or its deepest owned ancestor within a list item), most specific
 * first, including those that wrote through a subresource other than `status` (`/scale`).
 */
export function ownersOf(obj: K8sObject, path: Path): string[] {
  const owners: { manager: string; depth: number }[] = [];
  for (const entry of obj.metadata.managedFields ?? []) {
    // Status writers never conflict with a spec apply; `/scale` writers (kubectl scale, an HPA) do,
    // and their entries name the main resource's fields (`f:spec.f:replicas`).
    if (entry.subresource === 'status') continue;
    const depth = matchDepth(entry.fieldsV1, obj, path);
    if (depth > 0) owners.push({ manager: entry.manager ?? '(unknown)', depth });
  }
  owners.sort((a, b) => b.depth - a.depth || a.manager.localeCompare(b.manager));
  return [...new Set(owners.map((o) => o.manager))];
}

/**
 * How specifically a FieldsV1 set owns `path`: `path.length + 1` for the field itself, the depth
 * of an atomic ancestor it owns whole (a leaf `{}` above the path), or 0 when it does not own it.
 */
function matchDepth(fields: unknown, root: unknown, path: Path): number {
  let node = fields;
  let value = root;
  for (let i = 0; i < path.length; i++) {
    if (!isPlainObject(node)) return 0;
    if (i > 0 && Object.keys(node).every((k) => k === '.')) return i; // owns this ancestor atomically
    const seg = path[i]!;
    const key = childKey(node, value, seg);
    if (key === undefined) return 0;
    node = node[key];
    value = Array.isArray(value) ? value[Number(seg)] : isPlainObject(value) ? value[String(seg)] : undefined;
  }
  return path.length + 1;
}

function childKey(node: Record<string, unknown>, value: unknown, seg: string | number): string | undefined {
  if (!Array.isArray(value)) return `f:${seg}` in node ? `f:${seg}` : undefined;
  const item = value[Number(seg)];
  for (const key of Object.keys(node)) {
    if (key === `i:${seg}`) return key;
    if (key.startsWith('v:') && safeEqual(key.slice(2), item)) return key;
    if (key.startsWith('k:') && isPlainObject(item) && keyMatches(key.slice(2), item)) return key;
  }
  return undefined;
}

function keyMatches(json: string, item: Record<string, unknown>): boolean {
  const key = keyFields(json);
  return key !== undefined && itemHasKey(item, key);
}

/**
 * The key fields of a `k:` step: a JSON object, as the server writes them. Anything else (not JSON,
 * or JSON that is not an object: `k:5` would have matched every item) identifies no item.
 */
function keyFields(json: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Key fields the server defaults before it computes list-item keys: a desired port without a
 * protocol is keyed `{"containerPort":80,"protocol":"TCP"}` in managedFields.
 */
const KEY_DEFAULTS: Readonly<Record<string, unknown>> = { protocol: 'TCP' };

/** True when a list item has every key field of a managedFields key (absent ones at their default). */
function itemHasKey(item: Record<string, unknown>, key: Record<string, unknown>): boolean {
  return Object.entries(key).every(
    ([f, v]) => JSON.stringify(item[f] ?? KEY_DEFAULTS[f]) === JSON.stringify(v),
  );
}

function safeEqual(json: string, item: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(json)) === JSON.stringify(item);
  } catch {
    return false;
  }
}

/** A step in a managed path: a field, a list index, or a list item by key fields or by value. */
export type ManagedStep = string | { index: number } | { key: Record<string, unknown> } | { value: unknown };

/**
 * Leaf paths that `manager` owns through Apply (FieldsV1 of its Apply entry), with list items
 * identified the way the server does (by key fields, by value or by index). Used to find fields
 * that server-side apply will remove because they left the desired state.
 */
export function appliedPaths(obj: K8sObject, manager: string): ManagedStep[][] {
  const entry = (obj.metadata.managedFields ?? []).find(
    (e: ManagedFieldsEntry) => e.manager === manager && e.operation === 'Apply' && !e.subresource,
  );
  if (!entry?.fieldsV1) return [];
  const out: ManagedStep[][] = [];
  walk(entry.fieldsV1, [], out);
  return out;
}

function walk(node: Record<string, unknown>, path: ManagedStep[], out: ManagedStep[][]): void {
  const children = Object.keys(node).filter((k) => k !== '.');
  if (children.length === 0) {
    out.push(path);
    return;
  }
  for (const key of children) {
    const child = node[key];
    if (!isPlainObject(child)) continue;
    const step = stepOf(key);
    if (step !== undefined) walk(child, [...path, step], out);
  }
}

function stepOf(key: string): ManagedStep | undefined {
  try {
    if (key.startsWith('f:')) return key.slice(2);
    if (key.startsWith('i:')) return { index: Number(key.slice(2)) };
    if (key.startsWith('k:')) {
      const fields = keyFields(key.slice(2));
      return fields && { key: fields };
    }
    if (key.startsWith('v:')) return { value: JSON.parse(key.slice(2)) as unknown };
  } catch {
    return undefined;
  }
  return undefined;
}

/** True when `value` has something at the managed path (list items matched by key, value or index). */
export function hasManagedPath(value: unknown, path: readonly ManagedStep[]): boolean {
  let cur = value;
  for (const step of path) {
    if (typeof step === 'string') {
      if (!isPlainObject(cur) || !(step in cur)) return false;
      cur = cur[step];
    } else if (!Array.isArray(cur)) {
      return false;
    } else if ('index' in step) {
      cur = cur[step.index];
      if (cur === undefined) return false;
    } else if ('key' in step) {
      cur = cur.find((item) => isPlainObject(item) && itemHasKey(item, step.key));
      if (cur === undefined) return false;
    } else {
      const found = cur.some((item) => JSON.stringify(item) === JSON.stringify(step.value));
      if (!found) return false;
      cur = step.value;
    }
  }
  return true;
}

/** Renders a managed path for messages: `.spec.containers[name=web].image`. */
export function formatManagedPath(path: readonly ManagedStep[]): string {
  return path
    .map((s) =>
      typeof s === 'string'
        ? `.${s}`
        : 'index' in s
          ? `[${s.index}]`
          : 'key' in s
            ? `[${Object.entries(s.key)
                .map(([k, v]) => `${k}=${String(v)}`)
                .join(',')}]`
            : `[=${JSON.stringify(s.value)}]`,
    )
    .join('');
}
