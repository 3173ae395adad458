import type { K8sObject, ManagedFieldsEntry } from '../core/object.js';

/** How many distinct values of each kind (field sets, managedFields lists, maps, strings) an interner keeps before it starts over. */
const DEFAULT_MAX_SHAPES = 4096;

/**
 * The longest labels or annotations map (as JSON) that is shared. A longer one is most likely the
 * object's own (a `kubectl.kubernetes.io/last-applied-configuration`): keeping it as a key would
 * cost more than sharing saves.
 */
const MAX_MAP_CHARS = 1024;

/**
 * Shares the metadata of cached live objects that is equal between objects. Objects of one kind
 * written by one manager carry the same FieldsV1 set (every ConfigMap of a platform owns
 * `f:data.f:index`, `f:metadata.f:labels…`), the same managedFields list when they were applied in
 * the same second, the same labels and annotations, the same namespace and often the same
 * creationTimestamp; yet a LIST or a watch event parses each into its own values. Kept by the
 * agent's watch-fed caches for every managed object, those copies were most of what the caches
 * held beyond the objects' own fields (issue 36: every full GC marks them).
 *
 * The contract: an interned object is the object given, each of these values replaced by an
 * equal one (the same keys in the same order, the same values) that may be shared and is frozen
 * (a writer to it throws instead of changing another object's): `metadata.managedFields` (the
 * whole list when an equal list was seen, else each entry's `fieldsV1`), `metadata.labels`,
 * `metadata.annotations` (up to `MAX_MAP_CHARS` as JSON), `metadata.namespace` and
 * `metadata.creationTimestamp`. At most `maxShapes` distinct values of each kind are kept; past
 * that its table starts over (objects keep what they were given, so nothing is lost but the
 * sharing of values seen before).
 */
export class FieldsInterner {
  /** Field sets by their JSON, each with a number that stands for it in `lists`' keys. */
  private readonly sets = new Map<string, { set: Record<string, unknown>; n: number }>();
  private readonly setNumbers = new WeakMap<object, number>();
  private nextSet = 0;
  private readonly lists = new Map<string, ManagedFieldsEntry[]>();
  private readonly maps = new Map<string, Record<string, string>>();
  private readonly strings = new Map<string, string>();

  constructor(private readonly maxShapes = DEFAULT_MAX_SHAPES) {}

  /** `obj` with its metadata shared (see the class); returns `obj` itself. */
  intern(obj: K8sObject): K8sObject {
    const meta = obj.metadata;
    const fields = meta.managedFields;
    if (Array.isArray(fields)) {
      for (const entry of fields) this.sharedSet(entry);
      meta.managedFields = this.sharedList(fields);
    }
    if (isStringMap(meta.labels)) meta.labels = this.sharedMap('l', meta.labels);
    if (isStringMap(meta.annotations)) meta.annotations = this.sharedMap('a', meta.annotations);
    if (typeof meta.namespace === 'string') meta.namespace = this.sharedString(meta.namespace);
    if (typeof meta.creationTimestamp === 'string')
      meta.creationTimestamp = this.sharedString(meta.creationTimestamp);
    return obj;
  }

  /** Distinct field sets held now. */
  get size(): number {
    return this.sets.size;
  }

  private sharedSet(entry: ManagedFieldsEntry): void {
    const fieldsV1 = entry.fieldsV1;
    if (fieldsV1 === null || typeof fieldsV1 !== 'object') return;
    if (this.setNumbers.has(fieldsV1)) return;
    const known = this.kept(this.sets, JSON.stringify(fieldsV1), () => {
      const made = { set: deepFreeze(fieldsV1), n: this.nextSet++ };
      this.setNumbers.set(made.set, made.n);
      return made;
    });
    entry.fieldsV1 = known.set;
  }

  /** An equal list seen before (frozen), else `list` itself, frozen and kept. */
  private sharedList(list: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
    const key = list.map((entry) => this.entryKey(entry)).join('\n');
    return this.kept(this.lists, key, () => deepFreeze(list));
  }

  /** Every key and value of `entry` in order, its field set by the number `sharedSet` gave it. */
  private entryKey(entry: ManagedFieldsEntry): string {
    if (entry === null || typeof entry !== 'object') return JSON.stringify(entry);
    const parts: string[] = [];
    for (const [k, v] of Object.entries(entry)) {
      const n = k === 'fieldsV1' && v !== null && typeof v === 'object' ? this.setNumbers.get(v) : undefined;
      parts.push(`${JSON.stringify(k)}:${n === undefined ? JSON.stringify(v) : `#${n}`}`);
    }
    return parts.join(',');
  }

  private sharedMap(kind: 'l' | 'a', map: Record<string, string>): Record<string, string> {
    const json = JSON.stringify(map);
    if (json.length > MAX_MAP_CHARS) return map;
    return this.kept(this.maps, `${kind}${json}`, () => Object.freeze(map));
  }

  private sharedString(value: string): string {
    return this.kept(this.strings, value, () => value);
  }

  /**
   * The value `table` keeps for `key`, else `make()`'s, kept from now on; a table holding
   * `maxShapes` values starts over first.
   */
  private kept<V>(table: Map<string, V>, key: string, make: () => V): V {
    const known = table.get(key);
    if (known !== undefined) return known;
    if (table.size >= this.maxShapes) table.clear();
    const made = make();
    table.set(key, made);
    return made;
  }
}

/** A plain object of strings (labels, annotations as the API defines them); anything else is left alone. */
function isStringMap(value: unknown): value is Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const v of Object.values(value)) if (typeof v !== 'string') return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
