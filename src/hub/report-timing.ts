/** How the member paces its report writes. */
export interface ReportPacing {
  /** Wait this long after a change for more changes to fold in. @default 2000 */
  readonly debounceMs: number;
  /** At most one write per this long, unless Ready flips. @default 10000 */
  readonly minIntervalMs: number;
}

export const DEFAULT_PACING: ReportPacing = { debounceMs: 2000, minIntervalMs: 10_000 };

/**
 * When the next report write may happen, for a change first seen at `changedAtMs`: the debounce
 * after the change, and no sooner than `minIntervalMs` after the last write (`lastWriteMs`),
 * except when Ready flipped (`readyFlipped`): a member turning not-Ready is news the rollout needs
 * at once. Pure.
 */
export function nextReportAt(input: {
  readonly changedAtMs: number;
  readonly lastWriteMs?: number;
  readonly readyFlipped: boolean;
  readonly pacing?: ReportPacing;
}): number {
  const pacing = input.pacing ?? DEFAULT_PACING;
  const debounced = input.changedAtMs + pacing.debounceMs;
  if (input.readyFlipped || input.lastWriteMs === undefined) return debounced;
  return Math.max(debounced, input.lastWriteMs + pacing.minIntervalMs);
}
