import type { ChartLockEntry } from '../render/helm/chart-lock.js';

/**
 * What a candidate search decided for one pin: the version to propose (if any) with its notes,
 * and the newer versions it refused, each with a one-line reason. Plain data.
 */
export interface Decision {
  readonly pick?: Pick;
  readonly refused: readonly { readonly to: string; readonly reason: string }[];
}

export interface Pick {
  /** The new pinned value (a CSV name, a release version, a chart version). */
  readonly to: string;
  /** The version it stands for (a CSV's bundle version; otherwise `to`). */
  readonly version: string;
  /** The version the pin stands for now (the pinned CSV's bundle version; otherwise the pin). */
  readonly from?: string;
  readonly notes: readonly string[];
  /** OpenShift minor moves: the channel the target moves to. */
  readonly channel?: string;
  /** Charts: the lock entry of `to`, resolved as `chart update` resolves it. */
  readonly lockEntry?: ChartLockEntry;
}

/** At most this many refusals per pin: the newest ones, so a long catalog does not flood the output. */
export const MAX_REFUSALS_PER_PIN = 5;

/** The decision with its refusals cut to `MAX_REFUSALS_PER_PIN` (newest kept: the caller lists newest first). */
export function bounded(decision: Decision): Decision {
  return decision.refused.length <= MAX_REFUSALS_PER_PIN
    ? decision
    : { ...decision, refused: decision.refused.slice(0, MAX_REFUSALS_PER_PIN) };
}
