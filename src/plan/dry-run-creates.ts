import { idOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { Manifest } from '../render/synth/manifest.js';

/**
 * The creates a server-side dry-run can decide before anything is written, so that plan finds what
 * apply would hit (an admission webhook that refuses or cannot be called, an invalid value):
 * desired objects that do not exist, of a kind the server serves, in a namespace that exists now
 * (a Namespace this apply creates, or one being deleted, cannot take a dry-run), and not a
 * ClusterVersion (never created by Groundwork). Pure.
 */
export function createsToDryRun(
  desired: readonly Manifest[],
  observed: {
    live: ReadonlyMap<ObjectId, K8sObject>;
    unknownKinds: ReadonlySet<string>;
    namespacedKinds?: ReadonlySet<string>;
  },
): ObjectId[] {
  const namespaces = new Set(
    desired
      .filter((m) => m.object.apiVersion === 'v1' && m.object.kind === 'Namespace')
      .map((m) => m.object.metadata.name),
  );
  const usable = (ns: string) => {
    const live = observed.live.get(idOf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
    return live ? !live.metadata.deletionTimestamp : !namespaces.has(ns);
  };
  return desired
    .filter((m) => {
      const kind = `${m.object.apiVersion}/${m.object.kind}`;
      const ns = m.object.metadata.namespace;
      if (observed.live.has(m.id) || observed.unknownKinds.has(kind) || m.object.kind === 'ClusterVersion')
        return false;
      if (ns === undefined) return !observed.namespacedKinds?.has(kind);
      return usable(ns);
    })
    .map((m) => m.id);
}
