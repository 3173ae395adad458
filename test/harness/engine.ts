import type { K8sObject } from '../../src/core/object.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import { compareManifests, setHash } from '../../src/render/synth/manifest.js';
import { z } from 'zod';
import { POST_SYNTH_CHECKS } from '../../src/reconcile/domains.js';
import { definePlatform } from '../../src/render/synth/define-platform.js';
import { Platform } from '../../src/render/synth/platform.js';
import { synthesizeDefinition, type SynthResult } from '../../src/render/synth/synthesize.js';

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

/**
 * The real synth of a platform built inline (`build` gets its `Platform`), with the whole-platform
 * checks, as the agent runs it; no repository files (no catalogs, no graphs).
 */
export function synthPlatform(
  build: (platform: Platform) => void,
  opts: { name: string; overlay: string; openshiftVersion: string },
): Promise<SynthResult> {
  return synthesizeDefinition(
    definePlatform({
      values: z.object({}),
      build: (scope) => build(new Platform(scope, 'p', { openshiftVersion: opts.openshiftVersion })),
    }),
    {},
    {
      config: {
        name: opts.name,
        entry: 'test',
        overlays: 'overlays',
        defaultOverlay: 'x',
        catalogs: [],
        graphs: [],
      },
      overlay: opts.overlay,
      dir: '.',
      checks: POST_SYNTH_CHECKS,
    },
  );
}
