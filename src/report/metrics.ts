import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChangeAction } from '../apply/changeset.js';

/** How a reconcile ended: wrote changes, found nothing to do, or failed. */
type ReconcileResult = 'applied' | 'noop' | 'failed';

/** States counted by `groundwork_objects`: the change-set actions (deleted shown as pruned) plus drifted. */
type ObjectState = 'created' | 'configured' | 'unchanged' | 'pruned' | 'skipped' | 'failed' | 'drifted';

const OBJECT_STATES: readonly ObjectState[] = [
  'created',
  'configured',
  'unchanged',
  'pruned',
  'skipped',
  'failed',
  'drifted',
];

/** How a notification delivery ended. */
type NotificationOutcome = 'sent' | 'failed' | 'dropped';

interface MetricsOptions {
  /** Labels on every series, e.g. `{ platform, overlay }`. */
  labels?: Record<string, string>;
  /** Also collect prom-client's process and Node.js metrics (`process_*`, `nodejs_*`). @default true */
  processMetrics?: boolean;
}

/**
 * Groundwork's Prometheus metrics in a registry of their own (never the global one), with one small
 * method per thing to record. Metric names and labels are part of the agent's interface:
 *
 * | metric | type | labels |
 * |---|---|---|
 * | `groundwork_reconcile_duration_seconds` | histogram | `result` (applied, noop, failed) |
 * | `groundwork_reconcile_errors_total` | counter | `reason` (FetchFailed, SynthFailed, …) |
 * | `groundwork_objects` | gauge | `state` (created, configured, unchanged, pruned, skipped, failed, drifted) |
 * | `groundwork_drifted_objects` | gauge | |
 * | `groundwork_drift_detection_seconds` | histogram | (from a watch event to the drift report) |
 * | `groundwork_last_applied_revision_info` | gauge, 1 | `revision` (only the current one) |
 * | `groundwork_leader` | gauge, 0 or 1 | |
 * | `groundwork_suspended` | gauge, 0 or 1 | (1 while the PlatformSync is suspended) |
 * | `groundwork_notifications_sent_total` | counter | `target` (`forge`, or an alert target's name) |
 * | `groundwork_notification_failures_total` | counter | `target` (given up: a 4xx, or every retry failed) |
 * | `groundwork_notifications_dropped_total` | counter | `target` (queue full, or unsent at stop) |
 *
 * @example
 * const metrics = new GroundworkMetrics({ labels: { platform: 'example', overlay: 'prod' } });
 * metrics.reconciled(1830, 'applied');
 * res.end(await metrics.text());
 */
export class GroundworkMetrics {
  readonly registry = new Registry();
  private readonly duration: Histogram<'result'>;
  private readonly errors: Counter<'reason'>;
  private readonly objectsGauge: Gauge<'state'>;
  private readonly driftedGauge: Gauge;
  private readonly driftLatency: Histogram;
  private readonly revisionInfo: Gauge<'revision'>;
  private readonly leaderGauge: Gauge;
  private readonly suspendedGauge: Gauge;
  private readonly notifications: Record<NotificationOutcome, Counter<'target'>>;

  constructor(opts: MetricsOptions = {}) {
    const registers = [this.registry];
    if (opts.labels) this.registry.setDefaultLabels(opts.labels);
    this.duration = new Histogram({
      name: 'groundwork_reconcile_duration_seconds',
      help: 'Duration of a reconcile (fetch, synth, plan, apply, wait) by result.',
      labelNames: ['result'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers,
    });
    this.errors = new Counter({
      name: 'groundwork_reconcile_errors_total',
      help: 'Failed reconciles by reason (FetchFailed, SynthFailed, PlanFailed, ApplyFailed, ...).',
      labelNames: ['reason'],
      registers,
    });
    this.objectsGauge = new Gauge({
      name: 'groundwork_objects',
      help: 'Objects by state after the last reconcile (change-set actions, and drifted).',
      labelNames: ['state'],
      registers,
    });
    this.driftedGauge = new Gauge({
      name: 'groundwork_drifted_objects',
      help: 'Objects that differ from git (missing, modified or extra) in the last drift report.',
      registers,
    });
    this.driftLatency = new Histogram({
      name: 'groundwork_drift_detection_seconds',
      help: 'Time from the watch event that changed an object to the drift report naming it.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
      registers,
    });
    this.revisionInfo = new Gauge({
      name: 'groundwork_last_applied_revision_info',
      help: 'The last applied revision, as a label on a series of value 1.',
      labelNames: ['revision'],
      registers,
    });
    this.leaderGauge = new Gauge({
      name: 'groundwork_leader',
      help: '1 when this replica holds the leader lease, else 0.',
      registers,
    });
    this.suspendedGauge = new Gauge({
      name: 'groundwork_suspended',
      help: '1 while the sync is suspended (groundwork sync suspend): nothing is applied, drift is reported.',
      registers,
    });
    this.suspendedGauge.set(0);
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['target'], registers });
    this.notifications = {
      sent: counter(
        'groundwork_notifications_sent_total',
        'Commit statuses and alerts delivered, by target.',
      ),
      failed: counter(
        'groundwork_notification_failures_total',
        'Deliveries given up (a 4xx, or every retry failed), by target.',
      ),
      dropped: counter(
        'groundwork_notifications_dropped_total',
        'Deliveries dropped unsent (the queue was full, or the agent stopped), by target.',
      ),
    };
    for (const state of OBJECT_STATES) this.objectsGauge.set({ state }, 0);
    this.driftedGauge.set(0);
    this.leaderGauge.set(0);
    if (opts.processMetrics ?? true)
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
  }

  /** One finished reconcile. */
  reconciled(durationMs: number, result: ReconcileResult): void {
    this.duration.observe({ result }, durationMs / 1000);
  }

  /** One failed reconcile, by its stable reason (a condition reason or an error code). */
  reconcileError(reason: string): void {
    this.errors.inc({ reason });
  }

  /** Object counts of the last apply; states not given are set to 0 (`drifted` is left to `drift`). */
  objects(counts: Partial<Record<ObjectState, number>>): void {
    for (const state of OBJECT_STATES)
      if (state !== 'drifted' || counts.drifted !== undefined)
        this.objectsGauge.set({ state }, counts[state] ?? 0);
  }

  /** Object counts from a change set's `counts` (deleted is reported as pruned). */
  changeSet(counts: Readonly<Record<ChangeAction, number>>): void {
    this.objects({
      created: counts.created,
      configured: counts.configured,
      unchanged: counts.unchanged,
      pruned: counts.deleted,
      skipped: counts.skipped,
      failed: counts.failed,
    });
  }

  /** The number of drifted objects in the latest drift report. */
  drift(drifted: number): void {
    this.driftedGauge.set(drifted);
    this.objectsGauge.set({ state: 'drifted' }, drifted);
  }

  /** Latency from a watch event to the drift report that includes it. */
  driftDetected(latencyMs: number): void {
    this.driftLatency.observe(latencyMs / 1000);
  }

  /** The applied revision; the previous revision's series is removed. */
  appliedRevision(revision: string): void {
    this.revisionInfo.reset();
    this.revisionInfo.set({ revision }, 1);
  }

  leader(isLeader: boolean): void {
    this.leaderGauge.set(isLeader ? 1 : 0);
  }

  /** Whether the sync is suspended. */
  suspended(isSuspended: boolean): void {
    this.suspendedGauge.set(isSuspended ? 1 : 0);
  }

  /** One notification delivered, given up or dropped (report/notifications). */
  notification(target: string, outcome: NotificationOutcome): void {
    this.notifications[outcome].inc({ target });
  }

  /** The exposition text for `GET /metrics`. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The Content-Type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
