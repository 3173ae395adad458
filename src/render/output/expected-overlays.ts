import { confinedRealPath } from '../../core/confined-file.js';
import { loadProjectConfig } from '../../project/config.js';
import { listOverlays } from '../synth/overlays.js';

/**
 * The overlays a synth asked for, as the trusted side knows them: the one named, or for
 * `{ all: true }` the overlay files of the checkout's overlays directory (`listOverlays`, the
 * directory confined to the checkout). What `writeSynthOutput` accepts from the renderer's answer:
 * an overlay the answer names that is not here is never written.
 */
export async function expectedOverlays(dir: string, request: string | { all: true }): Promise<string[]> {
  if (typeof request === 'string') return [request];
  const config = await loadProjectConfig(dir);
  // Missing, or leading out of the checkout: no overlay is expected, so none is written.
  const overlays = await confinedRealPath({ root: dir, path: config.overlays }).catch(() => undefined);
  return overlays ? listOverlays(overlays) : [];
}
