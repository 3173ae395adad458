import { ANNOTATIONS, LABELS } from './hub-names.js';
import { rfc3339 } from './schema-parts.js';

/** What the hub says of a member's heartbeat: a closed vocabulary, worst first. */
export const REACHABILITY = ['Unreachable', 'Unknown', 'Reachable'] as const;
export type Reachability = (typeof REACHABILITY)[number];

/** What the controller knows of one member's heartbeat, by its own clock (milliseconds). */
export interface HeartbeatSeen {
  /** When the controller last saw the member's Lease change; undefined: not since it started watching. */
  readonly lastSeenMs?: number;
  /** When the controller's Lease watch last (re)started: every member gets one lease duration from then. */
  readonly watchingSinceMs: number;
  /** The member's lease duration (its spec's, not the Lease's own: the member writes that). */
  readonly leaseMs: number;
}

/**
 * The verdict on a member's heartbeat at `nowMs`, or undefined while it cannot be judged yet: the
 * controller's watch of the Leases (re)started less than a lease duration ago and has not seen a
 * renewal since (what is recorded stays). Seen within a lease duration: `Reachable`; nothing seen
 * for a lease duration since the later of the last renewal and the watch's start: `Unreachable`.
 * So neither a controller restart nor a broken watch on the hub's side makes members unreachable.
 * The Lease's `renewTime` is never read: a member writes it and could write any time. Pure.
 */
export function judgeReachability(seen: HeartbeatSeen, nowMs: number): Reachability | undefined {
  if (seen.lastSeenMs !== undefined && nowMs - seen.lastSeenMs <= seen.leaseMs) return 'Reachable';
  const since = Math.max(seen.lastSeenMs ?? -Infinity, seen.watchingSinceMs);
  return nowMs - since > seen.leaseMs ? 'Unreachable' : undefined;
}

/**
 * When the Lease watch counts as started, after it reports `up` (streaming) or down: a watch that
 * goes down forgets it (nothing is judged while down), one that comes up after being down starts
 * now (it may have missed renewals), and one that was up stays as it was: `watchKind` resumes a
 * stream the server closed (every 5 minutes) from its last resourceVersion and misses nothing, so
 * that is no reason to give every member a new lease duration (with leases longer than 5 minutes,
 * nobody would ever be judged Unreachable). Pure.
 */
export function watchingSince(previous: number | undefined, up: boolean, nowMs: number): number | undefined {
  if (!up) return undefined;
  return previous ?? nowMs;
}

/**
 * The merge patch of a FleetMember's metadata that records `verdict`, or undefined when its
 * `labels` already say so (nothing to write: a renewal alone never costs a write). The last-seen
 * time is written with each change, so an unreachable member shows when it was last heard from.
 * Pure.
 */
export function reachabilityPatch(
  labels: Readonly<Record<string, string>>,
  verdict: Reachability,
  seen: HeartbeatSeen,
  nowMs: number,
): { metadata: { labels: Record<string, string>; annotations: Record<string, string> } } | undefined {
  if (labels[LABELS.reachability] === verdict) return undefined;
  return {
    metadata: {
      labels: { [LABELS.reachability]: verdict },
      annotations: {
        [ANNOTATIONS.reachabilitySince]: rfc3339(nowMs),
        ...(seen.lastSeenMs !== undefined ? { [ANNOTATIONS.lastSeen]: rfc3339(seen.lastSeenMs) } : {}),
      },
    },
  };
}

/** The reachability a FleetMember's labels record (`Unknown` when none). Pure. */
export function recordedReachability(labels: Readonly<Record<string, string>>): Reachability {
  const value = labels[LABELS.reachability];
  return (REACHABILITY as readonly string[]).includes(value ?? '') ? (value as Reachability) : 'Unknown';
}
