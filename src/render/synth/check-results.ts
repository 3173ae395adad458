import { join } from 'node:path';
import type { ProjectConfig } from '../../project/config.js';
import { describeOrigins, originsInMessage, overlayOrigins } from './overlays.js';
import { runPostSynthChecks, type PostSynthCheck } from './post-synth-checks.js';
import type { SynthResult } from './synthesize.js';
import { SynthValidationError, type ValidationIssue } from './validation.js';

/**
 * Runs `checks` once on each result (every construct's and every chart's objects), outside the
 * sandbox: errors of every overlay are thrown together as `SynthValidationError`; warnings join
 * each result's own. Each issue names its overlay and, as synth's own issues do, the overlay
 * values its message quotes with the file and line that set them (`from`). Returns the results
 * with those warnings.
 */
export async function checkResults(
  results: readonly SynthResult[],
  opts: { config: ProjectConfig; dir: string; checks: readonly PostSynthCheck[] },
): Promise<SynthResult[]> {
  if (opts.checks.length === 0) return [...results];
  const errors: ValidationIssue[] = [];
  const out: SynthResult[] = [];
  for (const result of results) {
    const found = await runPostSynthChecks(
      { config: opts.config, manifests: result.manifests, dir: opts.dir },
      opts.checks,
    );
    const origins =
      found.length > 0
        ? await overlayOrigins(join(opts.dir, opts.config.overlays), result.overlay, opts.dir)
        : [];
    const withOverlay = found.map((i): ValidationIssue => {
      const from = i.from ?? describeOrigins(originsInMessage(i.message, origins));
      return { ...i, overlay: result.overlay, ...(from ? { from } : {}) };
    });
    errors.push(...withOverlay.filter((i) => i.severity === 'error'));
    out.push({
      ...result,
      warnings: [...result.warnings, ...withOverlay.filter((i) => i.severity !== 'error')],
    });
  }
  if (errors.length > 0) throw new SynthValidationError([...errors, ...out.flatMap((r) => r.warnings)]);
  return out;
}
