import type { K8sObject, ManagedFieldsEntry } from '../core/object.js';

/** How many distinct field sets an interner keeps before it starts over. */
const DEFAULT_MAX_SHAPES = 4096;

/**
 * Shares the `metadata.managedFields` entries of cached live objects that are equal. Objects of
 * one kind written by one manager carry the same FieldsV1 set (every ConfigMap of a platform owns
 * `f:data.f:index`, `f:metadata.f:labels…`), yet a LIST or a watch event parses each into its own
 * tree: at 20,000 objects they were 12 MB of the 29 MB the agent's watch-fed caches held. An
 * interner keeps one frozen copy per distinct field set (`fieldsV1`) and hands it to every entry
 * that has it.
 *
 * The contract: an interned object is the object given, its managedFields entries unchanged but
 * for `fieldsV1`, now an equal tree that may be shared and is frozen (a writer to it throws
 * instead of changing another object's). At most `maxShapes` distinct field sets are kept; past
 * that the table starts over (objects keep what they were given, so nothing is lost but the
 * sharing of sets seen before).
 */
export class FieldsInterner {
  private readonly entries = new Map<string, Record<string, unknown>>();

  constructor(private readonly maxShapes = DEFAULT_MAX_SHAPES) {}

  /** `obj` with its managedFields' field sets shared (see the class); returns `obj` itself. */
  intern(obj: K8sObject): K8sObject {
    const fields = obj.metadata.managedFields;
    if (Array.isArray(fields)) for (const entry of fields) this.shared(entry);
    return obj;
  }

  /** Distinct field sets held now. */
  get size(): number {
    return this.entries.size;
  }

  private shared(entry: ManagedFieldsEntry): void {
    const fieldsV1 = entry.fieldsV1;
    if (fieldsV1 === null || typeof fieldsV1 !== 'object') return;
    const key = JSON.stringify(fieldsV1);
    let known = this.entries.get(key);
    if (!known) {
      if (this.entries.size >= this.maxShapes) this.entries.clear();
      known = deepFreeze(fieldsV1);
      this.entries.set(key, known);
    }
    // The entry itself stays the object's own (its `time` differs from object to object).
    entry.fieldsV1 = known;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
