// The values notifications are made of: what the agent saw, and what it tells the forge and the alert targets.
import type { AlertEvent } from '../../project/notifications-config.js';

export type { AlertEvent } from '../../project/notifications-config.js';

/** Commit status states, Groundwork's vocabulary; each forge client maps them to its own. */
export type CommitState = 'pending' | 'success' | 'failure';

/** One status on one commit, under one context (`groundwork/<environment>/<cluster>`). */
export interface CommitStatus {
  readonly sha: string;
  readonly state: CommitState;
  /** One line, at most 140 characters (GitHub's limit). */
  readonly description: string;
  readonly context: string;
  readonly targetUrl?: string;
}

/** One alert: an event, the subject it is about, and a stable key (no times, no durations) for deduplication. */
export interface Alert {
  readonly event: AlertEvent;
  /** `<event>/<subject>/<reason>`: the same key within the dedup window is one alert. */
  readonly key: string;
  readonly severity: 'info' | 'warning' | 'error';
  /** One line for people. */
  readonly summary: string;
  readonly revision?: string;
  readonly reason?: string;
  /** Object ids an alert is about (drift), at most 20. */
  readonly objects?: readonly string[];
}

/** A drifted object as an alert names it. */
export interface DriftLike {
  readonly id: string;
  readonly type: 'missing' | 'modified' | 'extra';
}

/**
 * What the agent tells the notifier, as it happens: a revision fetched, a cycle's outcome, a drift
 * check's finding, or an event of a domain (version step, pool rollout, promotion) named directly.
 */
export type NotifyEvent =
  | { readonly type: 'fetched'; readonly revision: string }
  | {
      readonly type: 'cycle-ended';
      readonly revision: string | undefined;
      readonly failure?: { readonly reason: string; readonly message: string };
      /** The cycle's revision is the last good one (applied now or before). */
      readonly good: boolean;
      readonly suspended: boolean;
      readonly health?: { readonly status: string; readonly reason: string; readonly message?: string };
      readonly drift: readonly DriftLike[];
      readonly mode: 'detect-only' | 'self-heal';
      /** Stage waits the last apply left pending (a version step, a pool rollout). */
      readonly pending?: readonly { readonly stage: string; readonly message: string }[];
    }
  | {
      readonly type: 'drift-checked';
      readonly drift: readonly DriftLike[];
      readonly mode: 'detect-only' | 'self-heal';
      readonly revision?: string;
    }
  | { readonly type: 'alert'; readonly alert: Alert };
