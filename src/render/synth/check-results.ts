import type { ProjectConfig } from '../../project/config.js';
import { runPostSynthChecks, type PostSynthCheck } from './post-synth-checks.js';
import type { SynthResult } from './synthesize.js';
import { SynthValidationError, type ValidationIssue } from './validation.js';

/**
 * Runs `checks` once on each result (every construct's and every chart's objects), outside the
 * sandbox: errors of every overlay are thrown together as `SynthValidationError`; warnings join
 * each result's own. Returns the results with those warnings.
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
    const withOverlay = found.map((i) => ({ ...i, overlay: result.overlay }));
    errors.push(...withOverlay.filter((i) => i.severity === 'error'));
    out.push({
      ...result,
      warnings: [...result.warnings, ...withOverlay.filter((i) => i.severity !== 'error')],
    });
  }
  if (errors.length > 0) throw new SynthValidationError([...errors, ...out.flatMap((r) => r.warnings)]);
  return out;
}
