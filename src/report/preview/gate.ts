import type { PreviewData } from './preview.js';
import type { RiskSeverity } from './risk-note.js';

/**
 * What fails a pull request's preview gate (`groundwork preview --fail-on`), from least to most
 * strict: `synth-error`, head does not synthesize; `blocker`, that or a blocker note (an invalid
 * change, e.g. a target that skips a minor); `warning`, those or a high or medium note (a minor
 * update, a reboot, a channel switch, a prune). Low and info notes never fail it.
 */
export type FailOn = 'synth-error' | 'blocker' | 'warning';

export const FAIL_ON: readonly FailOn[] = ['synth-error', 'blocker', 'warning'];

const FAILING: Readonly<Record<FailOn, readonly RiskSeverity[]>> = {
  'synth-error': [],
  blocker: ['blocker'],
  warning: ['blocker', 'high', 'medium'],
};

/** Why the gate fails, one reason a line; empty when it passes. Pure. */
export function gateFailures(
  preview: Pick<PreviewData, 'status' | 'risks' | 'head'>,
  failOn: FailOn,
): string[] {
  const out: string[] = [];
  if (preview.status === 'head-failed')
    out.push(`head does not synthesize (${preview.head.failure?.code ?? 'failed'})`);
  for (const severity of FAILING[failOn])
    if (preview.risks[severity] > 0) out.push(`${preview.risks[severity]} ${severity} risk note(s)`);
  return out;
}
