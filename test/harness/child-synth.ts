import { GroundworkError } from '../../src/core/errors.js';
import { synthesizeInChild, type ChildSynthOptions } from '../../src/render/sandbox/run-in-child.js';

/** Synthesizes `dir`'s overlay `dev` in the sandboxed child, without the bundle cache. */
export function childSynth(dir: string, opts: Partial<ChildSynthOptions> = {}) {
  return synthesizeInChild({ dir, overlay: 'dev', cache: false, ...opts });
}

/**
 * The `GroundworkError` that `childSynth` rejects with; throws when synth succeeds ('synth succeeded')
 * or fails with anything else.
 */
export async function childSynthError(
  dir: string,
  opts: Partial<ChildSynthOptions> = {},
): Promise<GroundworkError> {
  const err = await childSynth(dir, opts).then(
    () => new Error('synth succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof GroundworkError)) throw err;
  return err;
}
