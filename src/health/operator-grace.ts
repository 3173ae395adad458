import type { Condition } from '../core/object.js';

/**
 * How long a ClusterOperator may be unavailable or degraded before the update's overall verdict
 * warns, then fails: oc's `unavailableWarningThreshold`, `unavailableErrorThreshold`,
 * `degradedWarningThreshold` and `degradedErrorThreshold` (openshift/oc
 * `pkg/cli/admin/upgrade/status/controlplane.go`, `coInsights`), in milliseconds.
 */
export const OPERATOR_GRACE_MS = {
  unavailable: { warning: 5 * 60_000, error: 20 * 60_000 },
  degraded: { warning: 5 * 60_000, error: 40 * 60_000 },
} as const;

/** `none`: within the warning threshold; `warning`: past it; `error`: past the error threshold. */
export type GraceLevel = 'none' | 'warning' | 'error';

/** Where one operator's condition stands against oc's thresholds. */
export interface OperatorGrace {
  /** `Available=False` is judged as `unavailable`, `Degraded=True` as `degraded`. */
  kind: keyof typeof OPERATOR_GRACE_MS;
  level: GraceLevel;
  /** The condition's reason, when it has one. */
  reason: string | undefined;
  /** How long the condition has held, from its `lastTransitionTime`. */
  sinceMs: number;
  /** Time until the update's verdict fails (0 once it has). */
  leftMs: number;
  /** `machine-config is unavailable (Reason) for 6m: failing the update in 14m`. */
  message: string;
}

/**
 * The worse of an operator's `Available=False` and `Degraded=True` against oc's thresholds, at
 * `now`, or `undefined` when neither holds. A condition without a readable `lastTransitionTime`
 * counts as past every threshold (its age cannot be shown to be short). Like oc, it judges only
 * the conditions: an `Available` that is missing or `Unknown` is not timed here.
 */
export function operatorGrace(
  name: string,
  conditions: readonly Condition[],
  now: Date,
): OperatorGrace | undefined {
  const found = [
    timed(
      name,
      'unavailable',
      conditions.find((c) => c.type === 'Available' && c.status === 'False'),
      now,
    ),
    timed(
      name,
      'degraded',
      conditions.find((c) => c.type === 'Degraded' && c.status === 'True'),
      now,
    ),
  ].filter((g): g is OperatorGrace => !!g);
  return found.sort((a, b) => rank(b.level) - rank(a.level) || a.leftMs - b.leftMs)[0];
}

function timed(
  name: string,
  kind: OperatorGrace['kind'],
  condition: Condition | undefined,
  now: Date,
): OperatorGrace | undefined {
  if (!condition) return undefined;
  const since = Date.parse(condition.lastTransitionTime ?? '');
  const sinceMs = Number.isNaN(since) ? Infinity : Math.max(0, now.getTime() - since);
  const limits = OPERATOR_GRACE_MS[kind];
  // oc: `evaluated.After(lastTransitionTime + threshold)`, so exactly at the threshold is not past it.
  const level: GraceLevel = sinceMs > limits.error ? 'error' : sinceMs > limits.warning ? 'warning' : 'none';
  const leftMs = level === 'error' ? 0 : limits.error - sinceMs;
  const what = `${name} is ${kind} (${condition.reason ?? 'no reason'}) for ${formatAge(sinceMs)}`;
  const message =
    level === 'error'
      ? `${what}: past oc's ${formatAge(limits.error)} limit`
      : `${what}: failing the update in ${formatAge(leftMs)}`;
  return { kind, level, reason: condition.reason, sinceMs, leftMs, message };
}

function rank(level: GraceLevel): number {
  return level === 'error' ? 2 : level === 'warning' ? 1 : 0;
}

/** `45s`, `6m`, `6m5s`, `1h2m`, `unknown time` for an unreadable age. */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms)) return 'an unknown time';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h${m > 0 ? `${m}m` : ''}`;
  return `${m}m${s % 60 > 0 ? `${s % 60}s` : ''}`;
}
