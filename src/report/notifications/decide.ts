import { commitOf } from './commit-sha.js';
import { isFresh, remember, type AlertMemory } from './dedup.js';
import { transitionAlerts, type Progress } from './transitions.js';
import type { Alert, CommitState, CommitStatus, DriftLike, NotifyEvent } from './types.js';

/** What the notifier remembers between events: the last status per commit, when each alert was sent. */
export interface NotifyMemory {
  /** `<sha>` → `<state> <description>` of the last status set on it (the newest 50 commits). */
  readonly statuses: ReadonlyMap<string, string>;
  readonly alerts: AlertMemory;
  /** What the last finished cycle left (transitions.ts); undefined before the first. */
  readonly progress?: Progress;
}

export const EMPTY_MEMORY: NotifyMemory = { statuses: new Map(), alerts: new Map() };

export interface DecideContext {
  /** The commit status context, `groundwork/<environment>/<cluster>`. */
  readonly context: string;
  /** The dashboard link put on each status. */
  readonly targetUrl?: string;
  readonly now: number;
  readonly dedupWindowMs: number;
  /** The environment, and the one it is promoted from (a new revision here is then a promotion). */
  readonly environment?: { readonly name: string; readonly promotedFrom?: string };
}

/** Cycle failures that say nothing about the commit (the forge or the apiserver was away): no status, no alert. */
const TRANSIENT = new Set(['FetchFailed', 'ObserveFailed', 'Interrupted']);
const MAX_COMMITS = 50;
const MAX_OBJECTS = 20;

/**
 * The commit statuses and alerts one event produces, and the memory after it. Pure: the clock is
 * `ctx.now`, nothing is sent. A status equal to the last one on the same commit is not produced
 * again (GitHub keeps every POST as a new status: Flux's notification-controller#92), nor is an
 * alert whose key was sent within the window (keys hold no times or durations, unlike the
 * messages Flux deduplicated on, notification-controller#509).
 *
 * @example
 * const { statuses } = decide(EMPTY_MEMORY, { type: 'fetched', revision: 'main@sha1:' + sha }, ctx);
 * // [{ sha, state: 'pending', context: 'groundwork/staging/eu-1', ... }]
 */
export function decide(
  memory: NotifyMemory,
  event: NotifyEvent,
  ctx: DecideContext,
): { memory: NotifyMemory; statuses: CommitStatus[]; alerts: Alert[] } {
  const wanted = [...statusesOf(event)];
  const alerts = alertsOf(event);
  let progress = memory.progress;
  if (event.type === 'cycle-ended') {
    const t = transitionAlerts(
      memory.progress,
      {
        revision: event.revision,
        failed: event.failure !== undefined,
        good: event.good,
        pending: event.pending ?? [],
      },
      ctx.environment ?? { name: ctx.context },
    );
    alerts.push(...t.alerts);
    progress = t.progress;
  }
  const statuses: CommitStatus[] = [];
  const known = new Map(memory.statuses);
  for (const s of wanted) {
    const sha = commitOf(s.revision);
    if (!sha) continue;
    // Pending marks a commit first seen: a commit fetched again on each poll keeps its outcome.
    if (event.type === 'fetched' && known.has(sha)) continue;
    const description = oneLine(s.description, 140);
    const seen = `${s.state} ${description}`;
    if (known.get(sha) === seen) continue;
    known.delete(sha); // re-inserted last: the map's order is the order commits were last seen
    known.set(sha, seen);
    statuses.push({
      sha,
      state: s.state,
      description,
      context: ctx.context,
      ...(ctx.targetUrl ? { targetUrl: ctx.targetUrl } : {}),
    });
  }
  while (known.size > MAX_COMMITS) known.delete(known.keys().next().value!);

  const fresh = alerts
    .filter((a) => isFresh(memory.alerts, a.key, ctx.now, ctx.dedupWindowMs))
    .map((a) => (a.event === 'DriftDetected' ? withoutRecentDrift(a, memory.alerts, ctx) : a))
    .filter((a): a is Alert => a !== undefined);
  const sent = fresh.flatMap((a) => [
    a.key,
    ...(a.event === 'DriftDetected' ? (a.objects ?? []).map(driftKey) : []),
  ]);
  return {
    memory: {
      statuses: known,
      alerts: remember(memory.alerts, sent, ctx.now, ctx.dedupWindowMs),
      ...(progress ? { progress } : {}),
    },
    statuses,
    alerts: fresh,
  };
}

function* statusesOf(
  event: NotifyEvent,
): Generator<{ revision: string | undefined; state: CommitState; description: string }> {
  if (event.type === 'fetched') {
    yield { revision: event.revision, state: 'pending', description: 'Groundwork: fetched, applying' };
    return;
  }
  if (event.type !== 'cycle-ended') return;
  const { failure, revision, health } = event;
  if (failure) {
    if (!TRANSIENT.has(failure.reason))
      yield { revision, state: 'failure', description: `${failure.reason}: ${failure.message}` };
    return;
  }
  if (!event.good) {
    if (event.suspended)
      yield { revision, state: 'pending', description: 'Groundwork: sync suspended, not applied' };
    return;
  }
  const status = health?.status ?? 'Unknown';
  if (status === 'Healthy')
    yield { revision, state: 'success', description: 'Groundwork: applied and healthy' };
  else if (status === 'Degraded' || status === 'Missing')
    yield { revision, state: 'failure', description: `Health ${status}: ${health?.reason ?? 'Unknown'}` };
  else yield { revision, state: 'pending', description: `Groundwork: applied, health ${status}` };
}

function alertsOf(event: NotifyEvent): Alert[] {
  switch (event.type) {
    case 'fetched':
      return [];
    case 'alert':
      return [event.alert];
    case 'drift-checked':
      return event.mode === 'detect-only' ? driftAlert(event.drift, event.revision) : [];
    case 'cycle-ended': {
      const out: Alert[] = [];
      const { failure, revision, health } = event;
      if (failure && !TRANSIENT.has(failure.reason))
        out.push({
          event: 'ApplyFailed',
          key: `ApplyFailed/${revision ?? 'none'}/${failure.reason}`,
          severity: 'error',
          summary: oneLine(`${failure.reason}: ${failure.message}`, 500),
          reason: failure.reason,
          ...(revision ? { revision } : {}),
        });
      if (!failure && event.good && health?.status === 'Degraded')
        out.push({
          event: 'HealthDegraded',
          key: `HealthDegraded/${revision ?? 'none'}/${health.reason}`,
          severity: 'error',
          summary: oneLine(
            `health Degraded (${health.reason})${health.message ? `: ${health.message}` : ''}`,
            500,
          ),
          reason: health.reason,
          ...(revision ? { revision } : {}),
        });
      if (!failure && event.mode === 'detect-only') out.push(...driftAlert(event.drift, revision));
      return out;
    }
  }
}

/** One alert for a set of drifted objects; its key is the sorted set, each object also remembered alone. */
function driftAlert(drift: readonly DriftLike[], revision: string | undefined): Alert[] {
  if (drift.length === 0) return [];
  const objects = drift.map((d) => `${d.id} (${d.type})`).sort();
  return [
    {
      event: 'DriftDetected',
      key: `DriftDetected/${objects.join(',')}`,
      severity: 'warning',
      summary: `${drift.length} object(s) differ from git (detect-only: not corrected)`,
      objects,
      ...(revision ? { revision } : {}),
    },
  ];
}

const driftKey = (object: string) => `DriftDetected/${object}`;

/** A drift alert without the objects alerted within the window (undefined when none is left). */
function withoutRecentDrift(a: Alert, memory: AlertMemory, ctx: DecideContext): Alert | undefined {
  const objects = (a.objects ?? []).filter((o) => isFresh(memory, driftKey(o), ctx.now, ctx.dedupWindowMs));
  if (objects.length === 0) return undefined;
  return {
    ...a,
    summary: `${objects.length} object(s) differ from git (detect-only: not corrected)`,
    objects: objects.slice(0, MAX_OBJECTS),
  };
}

/** The first line-worth of `text`, whitespace folded, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
