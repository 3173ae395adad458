import { confinedRealPath } from '../../core/confined-file.js';
import type { Project } from '../../project/project.js';
import { listOverlays } from '../synth/overlays.js';

/**
 * The overlays a synth asked for, as the trusted side knows them: the one named, or for
 * `{ all: true }` the overlay files of the project's overlays directory (`listOverlays`, the
 * directory confined to the checkout). What `writeSynthOutput` accepts from the renderer's answer:
 * an overlay the answer names that is not here is never written.
 */
export async function expectedOverlays(project: Project, request: string | { all: true }): Promise<string[]> {
  if (typeof request === 'string') return [request];
  // Missing, or leading out of the checkout: no overlay is expected, so none is written.
  const overlays = await confinedRealPath({ root: project.dir, path: project.overlays }).catch(
    () => undefined,
  );
  return overlays ? listOverlays(overlays) : [];
}
