import { isPlainObject } from '../core/object.js';

/** A path into a JSON value: object keys and array indexes. */
export type Path = readonly (string | number)[];

/** RFC 6901 rendering: `/spec/containers/0/image`, with `~0`/`~1` escapes. */
export function toPointer(path: Path): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Parses an RFC 6901 pointer into path segments (all strings). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `path`, or undefined. */
function getAt(value: unknown, path: Path): unknown {
  let cur = value;
  for (const seg of path) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isPlainObject(cur)) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

/** A deep copy of `value` without the fields at `pointers` (missing paths are ignored). */
export function withoutPointers<T>(value: T, pointers: readonly string[]): T {
  if (pointers.length === 0) return value;
  const copy = structuredClone(value);
  for (const pointer of pointers) {
    const path = parsePointer(pointer);
    const parent = getAt(copy, path.slice(0, -1));
    const last = path[path.length - 1];
    if (last === undefined) continue;
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (isPlainObject(parent)) delete parent[last];
  }
  return copy;
}
