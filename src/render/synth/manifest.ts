import { idOf, type ObjectId } from '../../core/object-id.js';
import type { K8sObject } from '../../core/object.js';
import { stageIndex, stageOf, type StageName } from '../../core/stages.js';
import { canonicalHash, canonicalize, contentHash } from './canonical.js';

/** One desired object as synth hands it to plan: identity, stage, canonical content and its hash. */
export interface Manifest {
  id: ObjectId;
  stage: StageName;
  object: K8sObject;
  /** `sha256:` of the canonical object. */
  hash: string;
  /** Construct path that emitted it (for error messages), e.g. `platform/gitops/Subscription`. */
  source: string;
}

/** Builds a manifest from an emitted object (canonicalized, hashed, staged). */
export function toManifest(object: K8sObject, source: string): Manifest {
  const canonical = canonicalize(object);
  return {
    id: idOf(canonical),
    stage: stageOf(canonical),
    object: canonical,
    hash: canonicalHash(canonical),
    source,
  };
}

/** Stable order: stage, then kind, namespace, name, and group to break ties. */
export function compareManifests(a: Manifest, b: Manifest): number {
  const byStage = stageIndex(a.stage) - stageIndex(b.stage);
  if (byStage !== 0) return byStage;
  const ka = [a.object.kind, a.object.metadata.namespace ?? '', a.object.metadata.name, a.object.apiVersion];
  const kb = [b.object.kind, b.object.metadata.namespace ?? '', b.object.metadata.name, b.object.apiVersion];
  for (let i = 0; i < ka.length; i++) {
    if (ka[i]! < kb[i]!) return -1;
    if (ka[i]! > kb[i]!) return 1;
  }
  return 0;
}

/**
 * The manifest index written next to synthesized files (frozen format, `groundwork.io/v1`):
 * a content hash per object and one for the whole set (over the sorted `id hash` lines).
 */
export interface ManifestIndex {
  apiVersion: 'groundwork.io/v1';
  kind: 'ManifestIndex';
  platform: string;
  overlay: string;
  hash: string;
  count: number;
  objects: { id: ObjectId; stage: StageName; file: string; hash: string; source: string }[];
}

export function setHash(manifests: readonly Manifest[]): string {
  return contentHash(manifests.map((m) => `${m.id} ${m.hash}`).sort());
}
