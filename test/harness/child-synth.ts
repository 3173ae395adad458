import { GroundworkError } from '../../src/core/errors.js';
import { POST_SYNTH_CHECKS } from '../../src/reconcile/domains.js';
import type { RenderTools } from '../../src/render/recorded/render-recorded.js';
import { renderPlatform, type RenderPlatformOptions } from '../../src/render/render-platform.js';

/** `renderPlatform`'s options for a test, with the tools as `RenderTools` (resolved first). */
export type ChildSynthOptions = Partial<RenderPlatformOptions> & { renderTools?: RenderTools };

/**
 * Renders `dir`'s overlay `dev` as the CLI does (`renderPlatform`, domain `local`, the domains'
 * whole-platform checks, under the strongest isolation this machine allows), without caches unless
 * `opts.cache` says so.
 */
export async function childSynth(dir: string, opts: ChildSynthOptions = {}) {
  const { renderTools, ...rest } = opts;
  const tools = renderTools
    ? { helm: await renderTools.helm(), kustomize: await renderTools.kustomize() }
    : undefined;
  return renderPlatform(dir, {
    overlay: 'dev',
    domain: 'local',
    cache: false,
    checks: POST_SYNTH_CHECKS,
    ...rest,
    ...(tools ? { tools } : {}),
  });
}

/**
 * The `GroundworkError` that `childSynth` rejects with; throws when synth succeeds ('synth succeeded')
 * or fails with anything else.
 */
export async function childSynthError(dir: string, opts: ChildSynthOptions = {}): Promise<GroundworkError> {
  const err = await childSynth(dir, opts).then(
    () => new Error('synth succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof GroundworkError)) throw err;
  return err;
}
