import { redactText } from '../core/redact.js';
import { factLines } from './sync-status-render.js';
import { mdCell, mdCode } from './markdown.js';
import {
  failedConditions,
  inProgressOrStalled,
  outcomeConditions,
  progressingConditions,
  setConditions,
  type WantedCondition,
} from './sync-conditions.js';
import {
  COMMIT_TEXT_LIMIT,
  DRIFT_ITEMS,
  clip,
  rfc3339,
  statusSchema,
  type DriftStatus,
  type FailureReason,
  type HistoryEntry,
  type PendingWait,
  type SyncCondition,
  type SyncConditionType,
  type SyncStatusJson,
  type UnmanagedStatus,
  UNMANAGED_COUNTS,
} from './sync-status-schema.js';
import { GroundworkError } from '../core/errors.js';
import { describeRef } from '../core/object-id.js';
import type { HealthStatus } from '../health/types.js';
import type { StageName } from '../core/stages.js';
import type { DriftReport } from './drift-report.js';
import { clusterUpdateJson, operatorPinsJson } from './openshift-status.js';
import type { ClusterUpdateStatus } from '../cluster-version/update-status.js';
import type { OperatorPinStatus } from '../olm/pin-status.js';

export { type FailureReason, type SyncStatusJson } from './sync-status-schema.js';

/** Where a reconcile is while `Progressing`. */
type SyncPhase = 'fetching' | 'synthesizing' | 'planning' | 'applying' | 'waiting';

/**
 * What happened, as the agent reports it to `nextStatus`. `at` and `generation` come from the caller
 * so the builder stays pure (no clock, no cluster).
 */
export type SyncEvent =
  | {
      type: 'progressing';
      at: Date;
      generation: number;
      revision: string;
      phase: SyncPhase;
    }
  | {
      type: 'failed';
      at: Date;
      generation: number;
      reason: FailureReason;
      message: string;
      revision?: string;
      /** The construct path for `SynthFailed` (e.g. `platform/ingress/router`). */
      constructPath?: string;
      /** The object or file the failure is about (e.g. `Subscription/gitops/argocd`). */
      subject?: string;
      /** A failure a retry may cure (network, 5xx, conflict): Reconciling=True instead of Stalled. */
      transient?: boolean;
      /** The whole history to keep (see `appendHistory`); undefined keeps the previous one. */
      history?: readonly HistoryEntry[];
      /** The reconcile request this cycle answered (see `RECONCILE_ANNOTATION`). */
      handledReconcile?: string;
      /** As in `reconciled` (a blocked update fails the apply); undefined keeps the previous decisions. */
      openshift?: OpenShiftStatusInput;
    }
  | {
      type: 'reconciled';
      at: Date;
      generation: number;
      revision: string;
      /** True when the cluster now holds `revision` (applied, or verified without drift in detect-only). */
      applied: boolean;
      /** The newest revision the source knows, when newer than `revision`. @default revision */
      latestRevision?: string;
      /**
       * `revision`'s commit (message and author name), with `applied`; none clears the status's
       * `lastAppliedCommit` when `applied`.
       */
      commit?: { message: string; author: string };
      inventory: { objects: number; byStage?: Partial<Record<StageName, number>> };
      health: { status: HealthStatus; reason: string; message?: string };
      /** Drift that remains after this reconcile. @default no drift */
      drift?: DriftReport;
      pending?: readonly PendingWait[];
      /**
       * What the OpenShift hooks decided on the last apply (`OpenShiftDecisions`); a field left
       * undefined clears it from the status (its stage had nothing to do).
       */
      openshift?: OpenShiftStatusInput;
      /** Set while the sync is suspended; undefined clears it. */
      suspended?: SuspendedStatus;
      /** The whole history to keep (see `appendHistory`); undefined keeps the previous one. */
      history?: readonly HistoryEntry[];
      /** The reconcile request this cycle answered (see `RECONCILE_ANNOTATION`). */
      handledReconcile?: string;
    }
  | { type: 'drift'; at: Date; drift: DriftReport };

/** What the OpenShift hooks decided (the engine's `OpenShiftDecisions`). */
interface OpenShiftStatusInput {
  clusterUpdate?: ClusterUpdateStatus;
  operatorPins?: readonly OperatorPinStatus[];
}

/** Who suspended the sync, when and why (from the PlatformSync's annotations, already bounded). */
export interface SuspendedStatus {
  reason: string;
  by?: string;
  at?: string;
}

/**
 * The status after `event`, given the previous status (undefined on first use). Pure and
 * deterministic: a condition keeps its `lastTransitionTime` while its status stays the same, and
 * `lastReconcileTime` moves only when something else changed, so a reconcile that finds nothing to do
 * returns a status equal to the previous one (and the store makes no write).
 *
 * Emit `progressing` only when there is work to do (a new revision, or a plan with changes): a
 * periodic check that finds nothing to do should emit only `reconciled`. A `drift` event (from the
 * watch-driven detector, between reconciles) updates `drift` and, unless a reconcile is in progress or
 * stalled, `Ready`.
 *
 * @example
 * let s = nextStatus(undefined, { type: 'progressing', at, generation: 1, revision, phase: 'applying' });
 * s = nextStatus(s, { type: 'reconciled', at, generation: 1, revision, applied: true, inventory, health });
 * s.ready // true when healthy, without drift or pending waits
 */
export function nextStatus(previous: SyncStatus | undefined, event: SyncEvent): SyncStatus {
  const prev: SyncStatusJson = previous?.toJSON() ?? { conditions: [] };
  const generation = event.type === 'drift' ? (prev.observedGeneration ?? 0) : event.generation;
  const facts: SyncStatusJson = { ...prev };
  let wanted: WantedCondition[];
  if (event.type !== 'drift' && event.type !== 'progressing' && event.history)
    facts.history = event.history.length ? event.history.map((h) => ({ ...h })) : undefined;
  if (event.type !== 'drift' && event.type !== 'progressing' && event.handledReconcile)
    facts.lastHandledReconcileAt = event.handledReconcile;
  switch (event.type) {
    case 'progressing':
      facts.lastAttemptedRevision = event.revision;
      wanted = progressingConditions(`${event.phase} revision ${event.revision}`);
      break;
    case 'failed': {
      if (event.revision) facts.lastAttemptedRevision = event.revision;
      const where = event.constructPath
        ? `construct ${event.constructPath}: `
        : event.subject
          ? `${event.subject}: `
          : '';
      if (event.openshift) Object.assign(facts, openshiftFacts(event.openshift));
      wanted = failedConditions(event.reason, `${where}${event.message}`, event.transient ?? false);
      break;
    }
    case 'reconciled':
      facts.lastAttemptedRevision = event.revision;
      if (event.applied) facts.lastAppliedRevision = event.revision;
      if (event.applied) facts.lastAppliedCommit = event.commit ? commitStatus(event.commit) : undefined;
      facts.inventory = event.inventory as SyncStatusJson['inventory'];
      facts.health = {
        status: event.health.status,
        reason: event.health.reason,
        ...(event.health.message ? { message: clip(redactText(event.health.message)) } : {}),
      };
      facts.drift = driftStatus(event.drift);
      facts.unmanaged = unmanagedStatus(event.drift);
      facts.pending = event.pending?.length
        ? event.pending.map((p) => ({ stage: p.stage, message: clip(redactText(p.message)) }))
        : undefined;
      Object.assign(facts, openshiftFacts(event.openshift));
      facts.suspended = event.suspended
        ? { reason: clip(redactText(event.suspended.reason)), ...pick(event.suspended) }
        : undefined;
      wanted = outcomeConditions(facts, event.latestRevision ?? event.revision);
      break;
    case 'drift':
      facts.drift = driftStatus(event.drift);
      facts.unmanaged = unmanagedStatus(event.drift);
      wanted = inProgressOrStalled(prev)
        ? prev.conditions
        : outcomeConditions(facts, facts.lastAttemptedRevision);
      break;
  }
  const next = clean({ ...facts, observedGeneration: generation, conditions: [] });
  next.conditions = setConditions(prev.conditions, wanted, event.at, generation);
  if (
    event.type !== 'drift' &&
    !sameJson({ ...next, lastReconcileTime: undefined }, { ...prev, lastReconcileTime: undefined })
  )
    next.lastReconcileTime = rfc3339(event.at);
  return new SyncStatus(clean(next));
}

/** A status value with its renderings. Build with `nextStatus`; read back with `SyncStatus.parse`. */
export class SyncStatus {
  constructor(readonly value: SyncStatusJson) {}

  /** Validates a status read from the cluster; throws `InvalidSyncStatus` listing every problem. */
  static parse(json: unknown): SyncStatus {
    const result = statusSchema.safeParse(json ?? {});
    if (!result.success)
      throw new GroundworkError({
        code: 'InvalidSyncStatus',
        subject: 'PlatformSync status',
        message: result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      });
    return new SyncStatus(clean(result.data));
  }

  condition(type: SyncConditionType): SyncCondition | undefined {
    return this.value.conditions.find((c) => c.type === type);
  }

  /** Ready=True: the latest revision is applied, healthy, without drift or held waits. */
  get ready(): boolean {
    return this.condition('Ready')?.status === 'True';
  }

  get reconciling(): boolean {
    return this.condition('Reconciling')?.status === 'True';
  }

  get stalled(): boolean {
    return this.condition('Stalled')?.status === 'True';
  }

  /** Same content (key order ignored), so a store can skip the write. */
  equals(other: SyncStatus | SyncStatusJson | undefined): boolean {
    if (!other) return false;
    return sameJson(this.value, other instanceof SyncStatus ? other.value : other);
  }

  toJSON(): SyncStatusJson {
    return structuredClone(this.value);
  }

  /** A few lines for terminals and logs. */
  toString(): string {
    const conditions = this.value.conditions.map(
      (c) =>
        `${c.type}=${c.status} ${c.reason}${c.message ? `: ${c.message}` : ''} (since ${c.lastTransitionTime})`,
    );
    return [...conditions, ...factLines(this.value, (t) => t)].join('\n');
  }

  toMarkdown(title = 'PlatformSync'): string {
    const head = this.stalled
      ? '❌ Stalled'
      : this.reconciling
        ? '⏳ Reconciling'
        : this.ready
          ? '✅ Ready'
          : '⚠️ Not ready';
    const rows = this.value.conditions.map(
      (c) =>
        `| ${mdCell(c.type)} | ${mdCell(c.status)} | ${mdCell(c.reason)} | ${mdCell(c.message)} | ${mdCell(c.lastTransitionTime)} |`,
    );
    const facts = factLines(this.value, mdCode).map((l) =>
      l.startsWith(' ') ? `  - ${l.trim()}` : `- ${l}`,
    );
    return [
      `### ${head}: ${mdCode(title)}`,
      '',
      '| condition | status | reason | message | since |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      ...facts,
    ].join('\n');
  }
}

function pick(s: SuspendedStatus): { by?: string; at?: string } {
  return { ...(s.by ? { by: clip(redactText(s.by)) } : {}), ...(s.at ? { at: s.at } : {}) };
}

function driftStatus(report: DriftReport | undefined): DriftStatus | undefined {
  if (!report || !report.drifted) return undefined;
  return {
    ...report.summary,
    items: report.items.slice(0, DRIFT_ITEMS).map((i) => ({
      object: describeRef(i.ref),
      type: i.type,
      fields: i.fields.map((f) => f.path),
    })),
  };
}

/** The unmanaged-objects report's count and first counts; undefined when none was asked for. */
function unmanagedStatus(report: DriftReport | undefined): UnmanagedStatus | undefined {
  const u = report?.unmanaged;
  if (!u) return undefined;
  return {
    count: u.total,
    failOn: u.failOn,
    counts: u.counts.slice(0, UNMANAGED_COUNTS).map((c) => ({ ...c })),
  };
}

/** Drops undefined fields so that equal statuses compare equal. */
/** `clusterUpdate` and `operatorPins` from the hooks' decisions, bounded; an absent one is cleared. */
function openshiftFacts(
  o: OpenShiftStatusInput | undefined,
): Pick<SyncStatusJson, 'clusterUpdate' | 'operatorPins'> {
  return {
    clusterUpdate: o?.clusterUpdate ? clusterUpdateJson(o.clusterUpdate) : undefined,
    operatorPins: o?.operatorPins?.length ? operatorPinsJson(o.operatorPins) : undefined,
  };
}

function clean(s: SyncStatusJson): SyncStatusJson {
  return JSON.parse(JSON.stringify(s)) as SyncStatusJson;
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/**
 * A commit as the status keeps it: the message's first non-empty line and the author's name,
 * redacted and cut to `COMMIT_TEXT_LIMIT` characters each (control characters become spaces).
 */
function commitStatus(c: { message: string; author: string }): { subject: string; author: string } {
  const line = (s: string) => {
    const flat = redactText(s).replace(CONTROL, ' ').trim();
    return flat.length > COMMIT_TEXT_LIMIT ? `${flat.slice(0, COMMIT_TEXT_LIMIT - 1)}…` : flat;
  };
  const first = c.message.split('\n').find((l) => l.trim() !== '') ?? '';
  return { subject: line(first), author: line(c.author) };
}
