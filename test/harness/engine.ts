import type { K8sObject } from '../../src/core/object.js';
import { toManifest } from '../../src/synth/manifest.js';
import { compareManifests, setHash } from '../../src/synth/manifest.js';
import type { SynthResult } from '../../src/synth/synthesize.js';

/** A synth result made from inline objects (construct path `test/<kind>/<name>`), for engine tests. */
export function synthOf(
  objects: readonly K8sObject[],
  opts: { platform?: string; overlay: string },
): SynthResult {
  const manifests = objects
    .map((o) => toManifest(structuredClone(o), `test/${o.kind}/${o.metadata.name}`))
    .sort(compareManifests);
  return {
    platform: opts.platform ?? 'test',
    overlay: opts.overlay,
    manifests,
    hash: setHash(manifests),
    warnings: [],
  };
}

/** A ConfigMap in `namespace`. */
export function configMap(
  namespace: string,
  name: string,
  data: Record<string, string>,
  annotations?: Record<string, string>,
): K8sObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
    data,
  };
}
