import { idOf } from '../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../core/object.js';

/** An object whose two renders differ, with the JSON pointers of the fields that differ. */
export interface RenderDifference {
  id: string;
  /** At most 10 pointers, e.g. `/data/password`; `/` when the object is only in one render. */
  pointers: string[];
}

/**
 * The objects that differ between two renders of the same input, and where (pure). Objects are
 * paired by id; one present in a single render differs at `/`.
 */
export function renderDifferences(a: readonly K8sObject[], b: readonly K8sObject[]): RenderDifference[] {
  const byId = (objs: readonly K8sObject[]) => new Map(objs.map((o) => [idOf(o), o] as const));
  const [ma, mb] = [byId(a), byId(b)];
  const out: RenderDifference[] = [];
  for (const id of [...new Set([...ma.keys(), ...mb.keys()])].sort()) {
    const [x, y] = [ma.get(id), mb.get(id)];
    const pointers = x && y ? differingPointers(x, y, '') : ['/'];
    if (pointers.length > 0) out.push({ id, pointers: pointers.slice(0, 10) });
  }
  return out;
}

function differingPointers(a: unknown, b: unknown, at: string): string[] {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) =>
      differingPointers(a[k], b[k], `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
    );
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
    return a.flatMap((x, i) => differingPointers(x, b[i], `${at}/${i}`));
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [at || '/'];
}
