// The synth result cache around one render: `renderPlatform`'s only use of it.
import type { FrameExpectations } from '../sandbox/protocol.js';
import type { SynthResult } from '../synth/synthesize.js';
import { synthInputsDigest, type SynthInputs } from './synth-inputs.js';
import { readCachedResults, resultCacheDir, storeResults } from './synth-result-cache.js';

/**
 * The results of `render()`, or the ones an earlier render of the same inputs left in the
 * domain's result cache (`<cacheRoot>/results/<domain>`, keyed by `synthInputsDigest`), read as
 * data by `readCachedResults`: then no renderer starts. A render that succeeds is kept there; a
 * failed render keeps nothing (its error is the renderer's to say again). Without `cacheRoot`
 * (caching off), or where the inputs are too large to digest, every call renders.
 */
export async function cachedRender(opts: {
  cacheRoot: string | undefined;
  inputs: SynthInputs;
  expect: FrameExpectations & { capBytes: number };
  render: () => Promise<SynthResult[]>;
}): Promise<SynthResult[]> {
  if (opts.cacheRoot === undefined) return opts.render();
  const key = await synthInputsDigest(opts.inputs);
  if (key === undefined) return opts.render();
  const dir = resultCacheDir(opts.cacheRoot, opts.inputs.domain);
  const cached = await readCachedResults(dir, key, opts.expect);
  if (cached) return cached;
  const results = await opts.render();
  // Digested again: a file changed while the renderer read it must not be kept under the old key.
  if ((await synthInputsDigest(opts.inputs)) === key) await storeResults(dir, key, results);
  return results;
}
