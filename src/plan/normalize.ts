import type { K8sObject } from '../core/object.js';

const SERVER_METADATA = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
  'deletionGracePeriodSeconds',
];
const CLIENT_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/**
 * The comparable form of a live or dry-run object: no status, no server-maintained metadata
 * (uid, resourceVersion, generation, timestamps, managedFields) and no kubectl bookkeeping
 * annotation. Two objects that differ only in those are the same desired state.
 */
export function normalize(obj: K8sObject): K8sObject {
  const { status: _status, metadata, ...rest } = obj;
  const meta: Record<string, unknown> = { ...metadata };
  for (const k of SERVER_METADATA) delete meta[k];
  if (metadata.annotations) {
    const annotations = { ...metadata.annotations };
    for (const a of CLIENT_ANNOTATIONS) delete annotations[a];
    if (Object.keys(annotations).length > 0) meta.annotations = annotations;
    else delete meta.annotations;
  }
  return { ...rest, metadata: meta } as K8sObject;
}
