/** How the member paces its report writes. */
export interface ReportPacing {
  /** Wait this long after a change for more changes to fold in. @default 2000 */
  readonly debounceMs: number;
  /** At most one write per this long, unless Ready flips or the applied revision moves. @default 10000 */
  readonly minIntervalMs: number;
}

export const DEFAULT_PACING: ReportPacing = { debounceMs: 2000, minIntervalMs: 10_000 };

/**
 * When the next report write may happen, for a change first seen at `changedAtMs`: the debounce
 * after the change, and no sooner than `minIntervalMs` after the last write (`lastWriteMs`),
 * except when Ready flipped (`readyFlipped`) or the applied revision moved (`appliedMoved`): a
 * member turning not-Ready, or having applied what the hub released, is news the rollout waits
 * for. Both happen at most once per change of the cluster or release, so they cannot flood the
 * hub. Pure.
 */
export function nextReportAt(input: {
  readonly changedAtMs: number;
  readonly lastWriteMs?: number;
  readonly readyFlipped: boolean;
  readonly appliedMoved?: boolean;
  readonly pacing?: ReportPacing;
}): number {
  const pacing = input.pacing ?? DEFAULT_PACING;
  const debounced = input.changedAtMs + pacing.debounceMs;
  if (input.readyFlipped || input.appliedMoved || input.lastWriteMs === undefined) return debounced;
  return Math.max(debounced, input.lastWriteMs + pacing.minIntervalMs);
}
