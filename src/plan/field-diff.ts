import { isPlainObject } from '../core/object.js';
import { toPointer, type Path } from './json-pointer.js';
import { sameQuantityIn } from './quantity.js';

/** One field-level difference, addressed by JSON pointer. */
export interface FieldDiff {
  path: string;
  op: 'add' | 'remove' | 'replace';
  before?: unknown;
  after?: unknown;
  /** Field managers that own the live value (from managedFields), most specific first. */
  owners?: string[];
}

/**
 * Differences from `before` to `after`, deepest first-differing fields only (a whole added
 * object is one `add`). Lists are compared position by position; equal resource quantities written
 * differently (`90Mi`, `94371840`) are no difference. Order: by path.
 */
export function diffValues(before: unknown, after: unknown): FieldDiff[] {
  const out: FieldDiff[] = [];
  walk(before, after, [], out);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function walk(before: unknown, after: unknown, path: Path, out: FieldDiff[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    out.push({ path: toPointer(path), op: 'add', after });
    return;
  }
  if (after === undefined) {
    out.push({ path: toPointer(path), op: 'remove', before });
    return;
  }
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)]))
      walk(before[k], after[k], [...path, k], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++)
      walk(before[i], after[i], [...path, i], out);
    return;
  }
  if (sameQuantityIn(path[path.length - 2], before, after)) return;
  if (JSON.stringify(before) !== JSON.stringify(after))
    out.push({ path: toPointer(path), op: 'replace', before, after });
}
