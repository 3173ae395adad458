import { z } from 'zod';
import { HEALTH_ORDER, type HealthStatus } from '../health/types.js';
import { clusterUpdateSchema, operatorPinSchema } from './openshift-status.js';

// The PlatformSync status as data: its closed vocabularies, its schema and the types read from it.
// Its own module so that the status reducer (sync-status.ts), its conditions (sync-conditions.ts)
// and its renderings (sync-status-render.ts) all import it and none imports another back.

export const SYNC_CONDITION_TYPES = ['Ready', 'Reconciling', 'Stalled'] as const;
export type SyncConditionType = (typeof SYNC_CONDITION_TYPES)[number];

/**
 * Why a reconcile failed; with `Stalled=True` unless the failure is transient.
 * `DependencyUnresolvable`: OLM cannot carry a pinned operator to its pin because a dependency
 * cannot be resolved (docs/olm.md). The agent's
 * `CycleFailure` values are a subset; `Interrupted` (stopped or lost leadership mid-cycle) is
 * normally reported as transient.
 */
const FAILURE_REASONS = [
  'FetchFailed',
  'SynthFailed',
  'ObserveFailed',
  'PlanFailed',
  'ApplyFailed',
  'DependencyUnresolvable',
  'PruneRefused',
  'Interrupted',
  'VerificationFailed',
  'ReleaseRefused',
  'ReleasePending',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * Condition reasons, a closed vocabulary:
 * - `Progressing` (Reconciling=True, Ready=Unknown): fetching, synthesizing, planning or applying a revision;
 * - `ProgressingWithRetry` (Reconciling=True, Ready=False with the failure reason): a transient failure;
 * - `WaitingForHealth` (Reconciling=True, Ready=False): applied, objects still Progressing or Unknown;
 * - `Pending` (Reconciling=True, Ready=False): a stage wait is held, e.g. a pool outside its window;
 * - a `FailureReason` or `HealthCheckFailed` (Stalled=True, Ready=False): cannot progress without a change;
 * - `DriftDetected` (Ready=False): the cluster differs from git (detect-only mode, or before self-heal);
 * - `Suspended` (Ready=False): objects intentionally held (a paused pool, an update awaiting approval);
 * - `ReconciliationSucceeded` (Ready=True): the latest revision is applied, healthy and without drift.
 */
const SYNC_REASONS = [
  ...(['Progressing', 'ProgressingWithRetry', 'WaitingForHealth', 'Pending'] as const),
  ...FAILURE_REASONS,
  ...(['HealthCheckFailed', 'DriftDetected', 'Suspended', 'ReconciliationSucceeded'] as const),
] as const;
export type SyncReason = (typeof SYNC_REASONS)[number];

const count = z.number().int().nonnegative();
const conditionSchema = z.object({
  type: z.enum(SYNC_CONDITION_TYPES),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.enum(SYNC_REASONS),
  message: z.string(),
  lastTransitionTime: z.string(),
  observedGeneration: count,
});
const pendingSchema = z.object({ stage: z.string(), message: z.string() });
const driftSchema = z.object({
  drifted: count,
  missing: count,
  modified: count,
  extra: count,
  /** The first `DRIFT_ITEMS` drifted objects: object, type and field paths (never values). */
  items: z.array(
    z.object({
      object: z.string(),
      type: z.enum(['missing', 'modified', 'extra']),
      fields: z.array(z.string()),
    }),
  ),
});
/**
 * Objects in managed namespaces the agent did not apply (groundwork.yaml `unmanaged:`): how many,
 * whether they count as drift, and the first `UNMANAGED_COUNTS` counts per namespace and kind.
 */
const unmanagedStatusSchema = z.object({
  count,
  failOn: z.boolean(),
  counts: z.array(z.object({ namespace: z.string(), kind: z.string(), count })),
});
const ms = z.number().nonnegative();
/** What can start a full cycle (`status.history[].trigger`). */
export const CYCLE_TRIGGERS = [
  'start',
  'interval',
  'retry',
  'webhook',
  'reconcile-request',
  'resync',
  'release',
] as const;
export type CycleTrigger = (typeof CYCLE_TRIGGERS)[number];
const historySchema = z.object({
  revision: z.string(),
  /** When the cycle ended (RFC 3339). */
  at: z.string(),
  outcome: z.enum(['applied', 'failed']),
  /** What started the cycle: the agent starting, its interval, a retry after a failure, a webhook push, `groundwork sync reconcile`, or a watch resync. */
  trigger: z.enum(CYCLE_TRIGGERS).optional(),
  /** The failure reason (outcome failed). */
  reason: z.string().optional(),
  /** Objects created, configured, unchanged, deleted (pruned), failed by the apply. */
  counts: z.record(z.string(), count).optional(),
  /** Milliseconds per phase: fetch, synth, plan, apply, health. */
  timings: z.record(z.string(), ms).optional(),
});
export const statusSchema = z.object({
  /** `metadata.generation` of the PlatformSync this status was computed for. */
  observedGeneration: count.optional(),
  /** Always in the order Ready, Reconciling, Stalled. */
  conditions: z.array(conditionSchema).default([]),
  /** The revision the cluster was last brought to (`<branch>@sha1:<hex>`). */
  lastAppliedRevision: z.string().optional(),
  /**
   * The commit of `lastAppliedRevision`: its message's first line and its author's name (no email),
   * each at most `COMMIT_TEXT_LIMIT` characters. Text from git: any reader escapes it.
   */
  lastAppliedCommit: z.object({ subject: z.string(), author: z.string() }).optional(),
  /** The revision of the last reconcile attempt, successful or not. */
  lastAttemptedRevision: z.string().optional(),
  /** When the status last changed because of a reconcile; a reconcile that changes nothing leaves it. */
  lastReconcileTime: z.string().optional(),
  /** The last `groundwork.io/reconcile-requested-at` value a cycle answered (`groundwork sync reconcile`). */
  lastHandledReconcileAt: z.string().optional(),
  inventory: z.object({ objects: count, byStage: z.record(z.string(), count).optional() }).optional(),
  health: z
    .object({
      status: z.enum(HEALTH_ORDER as [HealthStatus, ...HealthStatus[]]),
      reason: z.string(),
      message: z.string().optional(),
    })
    .optional(),
  drift: driftSchema.optional(),
  /** Present when groundwork.yaml asks for the unmanaged-objects report (`unmanaged:`); informational unless `failOn`. */
  unmanaged: unmanagedStatusSchema.optional(),
  /** Stage waits that ended without reaching their goal, e.g. a pool waiting for its maintenance window. */
  pending: z.array(pendingSchema).optional(),
  /** The revisions applied or failed, newest first, at most `HISTORY_LIMIT` (kept across agent restarts). */
  history: z.array(historySchema).optional(),
  /** The cluster-version stage's last decision: the update path, each step's state and why, the next step, the risks. */
  clusterUpdate: clusterUpdateSchema.optional(),
  /** The pinned operators' last approval decisions: pin, installed CSV, open InstallPlans and why they wait. */
  operatorPins: z.array(operatorPinSchema).optional(),
  /** Set while the sync is suspended (`groundwork sync suspend`): nothing is applied, drift is reported. */
  suspended: z
    .object({ reason: z.string(), by: z.string().optional(), at: z.string().optional() })
    .optional(),
});

/**
 * The status of a `PlatformSync` (`groundwork.io/v1alpha1`), the agent's status object, one per
 * platform and overlay (schema in crds/groundwork.io_platformsyncs.yaml). Conditions follow
 * kubernetes-sigs/cli-utils kstatus: `Reconciling` and `Stalled` are abnormal-true conditions,
 * present only while True (absent means False, as in Flux); `Ready` is always present. Fields are
 * only ever added within v1alpha1.
 *
 * Secret values never appear: drift items list field paths only (no expected/actual values) and
 * every message goes through `redactText`.
 */
export type SyncStatusJson = z.infer<typeof statusSchema>;
export type SyncCondition = z.infer<typeof conditionSchema>;
export type DriftStatus = z.infer<typeof driftSchema>;
export type UnmanagedStatus = z.infer<typeof unmanagedStatusSchema>;
export type PendingWait = z.infer<typeof pendingSchema>;
export type HistoryEntry = z.infer<typeof historySchema>;

/** How many entries `status.history` keeps. */
export const HISTORY_LIMIT = 20;

/**
 * `history` with `entry` first, at most `HISTORY_LIMIT` long. An entry that repeats the newest one's
 * revision, outcome and reason is not added (a failure retried, an agent restarted on the same revision).
 */
export function appendHistory(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const top = history[0];
  if (top && top.revision === entry.revision && top.outcome === entry.outcome && top.reason === entry.reason)
    return [...history];
  return [entry, ...history].slice(0, HISTORY_LIMIT);
}

/** How many drifted objects the status lists (the drift report has them all). */
export const DRIFT_ITEMS = 20;
/** How many namespace and kind counts `status.unmanaged` lists (`groundwork drift --unmanaged` has them all). */
export const UNMANAGED_COUNTS = 20;
/** Longest condition message kept; the rest is cut with an ellipsis. */
const MESSAGE_LIMIT = 2048;

/** Longest commit subject or author name kept in `lastAppliedCommit`. */
export const COMMIT_TEXT_LIMIT = 200;

export function clip(s: string): string {
  return s.length > MESSAGE_LIMIT ? `${s.slice(0, MESSAGE_LIMIT - 1)}…` : s;
}

/** RFC 3339 with second precision, as `metav1.Time` serializes. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
