import { isValidId, type ObjectId } from '../core/object-id.js';
import { inventoryName } from '../core/object-name.js';

/**
 * The inventory: which objects an apply of one platform and overlay has put in the cluster, so
 * that objects removed from git can be pruned and nothing else ever is.
 *
 * Frozen storage format `groundwork.io/inventory/v1`: a ConfigMap in `INVENTORY_NAMESPACE` named
 * by `inventoryName(platform, overlay)`, labelled `groundwork.io/inventory: "true"`, with data keys
 * `format`, `platform`, `overlay`, `revision` and `objects` (object ids, one per line, sorted;
 * id format in src/core/object-id.ts). Every object Groundwork applies carries the annotation
 * `groundwork.io/owning-inventory: <namespace>/<name>` of its inventory (`inventoryOwner`); prune
 * trusts that, never the list alone (see src/plan/ownership.ts).
 */
export interface Inventory {
  platform: string;
  overlay: string;
  revision: string;
  objects: ReadonlySet<ObjectId>;
  /**
   * Read back only: stored entries that were not valid object ids, left out of `objects` (never
   * looked up, never pruned) and gone at the next write.
   */
  dropped?: readonly string[];
}

const INVENTORY_FORMAT = 'groundwork.io/inventory/v1';
export const INVENTORY_NAMESPACE = 'groundwork-system';
export const INVENTORY_LABEL = 'groundwork.io/inventory';

/** `gw-inventory-<platform>-<overlay>` as a DNS label (overlay `clusters/eu-1` → `clusters-eu-1`): `derivedName`. */
export { inventoryName };

/** The inventory's identity in ownership annotations: `<namespace>/<name>` of its ConfigMap. */
export function inventoryOwner(namespace: string, platform: string, overlay: string): string {
  return `${namespace}/${inventoryName(platform, overlay)}`;
}

/** ConfigMap data for an inventory. */
export function inventoryData(inv: Inventory): Record<string, string> {
  return {
    format: INVENTORY_FORMAT,
    platform: inv.platform,
    overlay: inv.overlay,
    revision: inv.revision,
    objects: [...inv.objects].sort().join('\n'),
  };
}

/**
 * Parses ConfigMap data; throws on an unknown format (never guesses what to prune). Entries that
 * are not valid object ids (`isValidId`) are left out and listed in `dropped`: one bad line never
 * fails the read.
 */
export function parseInventoryData(data: Record<string, string> | undefined): Inventory {
  if (!data || data.format !== INVENTORY_FORMAT) {
    throw new Error(
      `unsupported inventory format ${JSON.stringify(data?.format)}; expected ${INVENTORY_FORMAT}`,
    );
  }
  const entries = (data.objects ?? '').split(/\r?\n/).filter(Boolean);
  const dropped = entries.filter((id) => !isValidId(id));
  return {
    platform: data.platform ?? '',
    overlay: data.overlay ?? '',
    revision: data.revision ?? '',
    objects: new Set(entries.filter(isValidId)),
    ...(dropped.length > 0 ? { dropped } : {}),
  };
}

/**
 * True when two inventories record the same revision and objects (a write would change nothing);
 * never when `a` was read with dropped entries (the write removes them).
 */
export function sameInventory(a: Inventory | undefined, b: Inventory): boolean {
  return (
    !!a &&
    !a.dropped?.length &&
    a.revision === b.revision &&
    a.objects.size === b.objects.size &&
    [...b.objects].every((id) => a.objects.has(id))
  );
}
