import { describeRef, parseId, type ObjectId } from '../core/object-id.js';
import type { PlanItem } from './types.js';

/**
 * What a Namespace prune deletes besides itself: the objects listed in it (`contents`, of the kinds
 * Groundwork lists there) that git does not declare and the inventory does not
 * hold (those are prune items of their own). The namespace controller deletes them all.
 * Returns the item with `goesWith` and a message that names the first few; other items unchanged. Pure.
 */
export function withNamespaceContents(
  item: PlanItem,
  contents: ReadonlyMap<string, readonly ObjectId[]> | undefined,
  known: { desired: ReadonlySet<ObjectId>; inventory: ReadonlySet<ObjectId> },
): PlanItem {
  if (item.action !== 'prune' || item.ref.kind !== 'Namespace' || item.ref.group !== '') return item;
  const inside = (contents?.get(item.ref.name) ?? []).filter(
    (id) => !known.desired.has(id) && !known.inventory.has(id),
  );
  if (inside.length === 0) return item;
  const shown = inside.slice(0, 5).map((id) => describeRef(parseId(id)));
  return {
    ...item,
    goesWith: [...inside],
    message: `deleting it deletes ${inside.length} object(s) in it that are not in git: ${shown.join(', ')}${inside.length > 5 ? ', …' : ''}`,
  };
}

/** How many objects pruning these items deletes: each item, and what goes with it (`goesWith`). */
export function pruneWeight(items: readonly PlanItem[]): number {
  return items.reduce((n, i) => n + 1 + (i.goesWith?.length ?? 0), 0);
}
