import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * Groundwork's shipped data (`data/` in the package: the OLM and OpenShift CRDs, the graph-data
 * channel files), found from the package root, so it is the same from the sources, from a build
 * and from an npm install. See `data/PROVENANCE.md`.
 */
export function dataPath(...segments: string[]): string {
  return join(packageRoot, 'data', ...segments);
}
