// The manifests of a renderer's answer, checked without zod when every one is plainly valid: at
// 20,000 objects zod's walk (a copy of each object's identity fields included) cost the agent
// 70-140 ms of every render. Anything this check does not accept goes to zod, whose verdict and
// messages stand.
import { apiVersionProblem, kindProblem, nameProblem, nameRule } from '../../core/object-name.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../../core/object.js';
import { isStageName } from '../../core/stages.js';
import type { Manifest } from '../synth/manifest.js';

const HASH = /^sha256:[0-9a-f]{64}$/;
const MANIFEST_KEYS = ['id', 'stage', 'object', 'hash', 'source'] as const;

/**
 * Each result's manifests, as `protocol.ts`'s `manifestSchema` would return them (a new object per
 * manifest, keys in the schema's order, the object itself as it came), when `json` is an `ok`
 * answer whose results are plain objects with a `manifests` array and every manifest passes
 * `quickManifest` (`textMax`: the schema's bound of a `source`). Otherwise undefined, and the
 * caller parses the whole answer with zod. Accepts nothing the schema refuses; may refuse what it
 * accepts (the caller's zod decides then). Checks only the manifests: the rest of the answer is
 * the caller's to check. Pure.
 */
export function quickManifests(json: unknown, textMax: number): Manifest[][] | undefined {
  if (!isPlainObject(json) || json.ok !== true || !Array.isArray(json.results)) return undefined;
  const out: Manifest[][] = [];
  for (const result of json.results as unknown[]) {
    if (!isPlainObject(result) || !Array.isArray(result.manifests)) return undefined;
    const manifests: Manifest[] = [];
    for (const m of result.manifests as unknown[]) {
      const checked = quickManifest(m, textMax);
      if (!checked) return undefined;
      manifests.push(checked);
    }
    out.push(manifests);
  }
  return out;
}

/**
 * `json` with every result's manifests emptied (a shallow copy; other fields as they are), for
 * zod to check what `quickManifests` did not. Only for a value `quickManifests` accepted.
 */
export function withoutManifests(json: unknown): unknown {
  const answer = json as { results: Record<string, unknown>[] };
  return { ...answer, results: answer.results.map((r) => ({ ...r, manifests: [] })) };
}

/**
 * One manifest, when it is certainly valid: exactly the five keys, each of its type and bounds
 * (a `source` of at most `textMax` characters), a known stage, a sha256 hash and an object whose
 * identity passes the apiserver's rules as `k8sObjectIdentitySchema` checks it. Else undefined.
 */
export function quickManifest(v: unknown, textMax: number): Manifest | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== MANIFEST_KEYS.length || !MANIFEST_KEYS.every((k) => Object.hasOwn(v, k)))
    return undefined;
  const { id, stage, object, hash, source } = v;
  if (typeof id !== 'string' || typeof stage !== 'string' || !isStageName(stage)) return undefined;
  if (typeof hash !== 'string' || !HASH.test(hash)) return undefined;
  if (typeof source !== 'string' || source.length > textMax) return undefined;
  if (!validIdentity(object)) return undefined;
  return { id, stage, object, hash, source };
}

/** `k8sObjectIdentitySchema`'s rules, without building its output; true only when it would accept. */
function validIdentity(o: unknown): o is K8sObject {
  if (!isPlainObject(o) || !isPlainObject(o.metadata)) return false;
  const { apiVersion, kind } = o;
  const { name, namespace } = o.metadata;
  if (typeof apiVersion !== 'string' || apiVersion.length > 317 || apiVersionProblem(apiVersion))
    return false;
  if (typeof kind !== 'string' || kind.length > 63 || kindProblem(kind)) return false;
  if (typeof name !== 'string' || name.length > 253) return false;
  if (nameProblem(name, nameRule(splitApiVersion(apiVersion).group, kind))) return false;
  if (namespace === undefined) return true;
  return typeof namespace === 'string' && namespace.length <= 63 && !nameProblem(namespace, 'dns-label');
}
