import type { ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { redactionKey, type RedactionKey } from '../core/redaction-key.js';
import { redactDesired } from '../plan/desired-diff.js';
import type { DesiredObjects, DesiredSource } from '../ui/desired-objects.js';
import type { GoodRevision } from './agent-state.js';

/**
 * The dashboard's desired objects, from the agent's memory: the manifests of the revision it last
 * applied (`lastGood`: after synth and SOPS decryption), indexed by id, each Secret's values replaced
 * by keyed hashes (`redactDesired`) here, before anything reaches src/ui. Built once per applied
 * revision and redaction key, then shared by every request: other objects are the manifests' own
 * (no copy), so the cost is one index entry per object plus a redacted copy of each Secret.
 */
export function agentDesired(lastGood: () => GoodRevision | undefined): DesiredSource {
  let cached: { good: GoodRevision; key: RedactionKey; view: DesiredObjects } | undefined;
  return () => {
    const good = lastGood();
    if (!good) return undefined;
    const key = redactionKey();
    if (cached?.good !== good || cached.key !== key) cached = { good, key, view: desiredObjects(good) };
    return cached.view;
  };
}

function desiredObjects(good: GoodRevision): DesiredObjects {
  const byId = new Map<ObjectId, K8sObject>();
  for (const m of good.synth.manifests) byId.set(m.id, redactDesired(m.object));
  return { revision: good.revision, get: (id) => byId.get(id) };
}
