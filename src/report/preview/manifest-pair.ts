import { refOf, type ObjectId, type ObjectRef } from '../../core/object-id.js';
import type { StageName } from '../../core/stages.js';
import { compareManifests, type Manifest } from '../../render/synth/manifest.js';

/** What happens to one object between base and head. */
type ChangeAction = 'added' | 'changed' | 'removed' | 'unchanged';

/** One object id with its base and head manifests (either may be missing). */
export interface ManifestPair {
  id: ObjectId;
  ref: ObjectRef;
  action: ChangeAction;
  base?: Manifest;
  head?: Manifest;
}

/**
 * Pairs base and head manifests by object id, in apply order (head's position, or base's for a
 * removed object). An object is `changed` when its content hash differs (apiVersion included).
 */
export function pairManifests(base: readonly Manifest[], head: readonly Manifest[]): ManifestPair[] {
  const byId = new Map<ObjectId, { base?: Manifest; head?: Manifest }>();
  for (const m of base) byId.set(m.id, { base: m });
  for (const m of head) byId.set(m.id, { ...byId.get(m.id), head: m });
  const pairs: ManifestPair[] = [];
  for (const [id, { base: b, head: h }] of byId) {
    const any = (h ?? b)!;
    const action: ChangeAction = !b ? 'added' : !h ? 'removed' : b.hash === h.hash ? 'unchanged' : 'changed';
    pairs.push({ id, ref: refOf(any.object), action, ...(b ? { base: b } : {}), ...(h ? { head: h } : {}) });
  }
  return pairs.sort((x, y) => compareManifests((x.head ?? x.base)!, (y.head ?? y.base)!));
}

/** The pair's stage in head, else in base. */
export function stageOfPair(pair: ManifestPair): StageName {
  return (pair.head ?? pair.base)!.stage;
}

/** True when the pair is of `group/kind` (core group: `''`). */
export function isKind(pair: ManifestPair, group: string, kind: string): boolean {
  return pair.ref.group === group && pair.ref.kind === kind;
}
