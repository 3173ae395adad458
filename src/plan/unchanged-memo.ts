import { OWNER_ANNOTATION } from '../core/annotations.js';
import type { K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';

/** What one answer was given for: the desired manifest's hash and ownership stamp. */
interface Answer {
  hash: string;
  owner: string | undefined;
  unchanged: boolean;
}

/**
 * `looksUnchanged`'s answers, remembered per live object and desired manifest, so that the plan
 * of a one-object commit at 20,000 objects does not compare the other 19,999 again (issue 36).
 *
 * A live object is known by reference: the agent's watch-fed caches (`KindCache`) hand out the
 * same object until the server changes it (every event and every relist brings a new object), and
 * nothing writes to it. A desired manifest is known by its `hash` (synth's sha256 of the
 * canonical object: it names what git declared, as `onlyGitChanges` reads it) and the ownership
 * annotation the plan stamps on it (`withOwner`); the rest of the answer's input (the field
 * manager, the ignore pointers of the object's annotations) follows from those. An edit, a
 * deletion or a relist gives a new live object: nothing is found and the comparison runs, so
 * drift is seen as before. Live objects from a LIST without caches are new each time: the memo
 * finds nothing and costs its misses. Entries go with their live objects (a WeakMap).
 */
export class UnchangedMemo {
  private readonly answers = new WeakMap<K8sObject, Answer>();

  /** The remembered answer for `desired` against `live`, else `compare()`'s, remembered. */
  answer(desired: Manifest, live: K8sObject, compare: () => boolean): boolean {
    const owner = desired.object.metadata.annotations?.[OWNER_ANNOTATION];
    const known = this.answers.get(live);
    if (known && known.hash === desired.hash && known.owner === owner) {
      // Hold the current manifest's hash string: the previous revision's may then be collected.
      known.hash = desired.hash;
      return known.unchanged;
    }
    const unchanged = compare();
    this.answers.set(live, { hash: desired.hash, owner, unchanged });
    return unchanged;
  }
}
