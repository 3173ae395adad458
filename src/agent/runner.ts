import type { Logger } from 'pino';
import type { EventRecorder } from '../cluster/event-recorder.js';
import {
  platformSyncName,
  type PlatformSyncSpec,
  type SyncStatusStore,
} from '../cluster/sync-status-store.js';
import { DriftReport } from '../report/drift-report.js';
import type { GroundworkMetrics } from '../report/metrics.js';
import { nextStatus, type SyncStatus } from '../report/sync-status.js';
import type { PollSchedule } from '../source/schedule.js';
import type { Agent, CycleResult } from './agent.js';
import { DriftWatch, type ObservedChange } from './drift-watch.js';
import { parseSyncControl, type SyncControl } from './sync-control.js';
import {
  appendHistory,
  rfc3339,
  type CycleTrigger,
  type HistoryEntry,
} from '../report/sync-status-schema.js';
import type { ClusterSession } from '../reconcile/cluster-session.js';
import { statusMessage } from './synth-failed-note.js';
import { countsOf, timingsOf } from './cycle-log-fields.js';

export interface RunnerOptions {
  agent: Agent;
  session: ClusterSession;
  schedule: PollSchedule;
  /**
   * The PlatformSync status object: its spec, and its name (default `<platform>-<overlay>`, the
   * platform name coming from groundwork.yaml once a revision has synthesized).
   */
  sync: { name?: string; spec: PlatformSyncSpec; platform?: string; overlay: string };
  statusStore: SyncStatusStore;
  events: EventRecorder;
  metrics: GroundworkMetrics;
  log: Logger;
  /** Drift-watch batch delay. @default 100 */
  debounceMs?: number;
  /** How often a sleeping runner reads its PlatformSync for a reconcile request. @default 5000 */
  controlPollMs?: number;
}

/**
 * Runs the agent: a full cycle now, then on every poll (interval with jitter; exponential backoff
 * with jitter after failures), at once on `trigger()` (webhook), plus targeted drift checks whenever
 * a watch sees a managed object change. Cycles and drift checks never overlap. Reports each outcome
 * to the PlatformSync status (written only when it changed), Events and metrics.
 *
 * `stop()` aborts: the apply in flight finishes the objects it is writing and starts no new ones.
 */
export class AgentRunner {
  private readonly controller = new AbortController();
  private wake: (() => void) | undefined;
  private triggered = false;
  private serial: Promise<unknown> = Promise.resolve();
  private status: SyncStatus | undefined;
  private generation = 1;
  private watch: DriftWatch;
  private loop: Promise<void> | undefined;
  private tracked: { good: unknown; all: boolean } = { good: undefined, all: false };
  /** `status.history`, seeded from the stored status once (it outlives the agent); undefined until read. */
  private history: HistoryEntry[] | undefined;
  /** What asked for the next cycle out of turn (a webhook, a reconcile request, a resync). */
  private requested: CycleTrigger | undefined;
  /** What started the cycle in flight (its history entry says so). */
  private cause: CycleTrigger = 'start';
  /** The reconcile request the last cycle answered. */
  private handled: string | undefined;
  /** Completed full cycles (for readiness and tests). */
  cycles = 0;
  lastResult: CycleResult | undefined;

  constructor(private readonly opts: RunnerOptions) {
    opts.agent.readControl = () => this.readControl();
    this.watch = new DriftWatch(opts.session.client, opts.session.discovery, {
      debounceMs: opts.debounceMs ?? 100,
      onChanges: (changes) => void this.enqueue(() => this.checkChanges(changes)),
      onResync: () => this.trigger('resync'),
      onError: (err) => opts.log.debug({ err: String(err) }, 'watch error, retrying'),
      scope: opts.session.scope,
    });
  }

  /** Starts the loop (returns at once). */
  start(): void {
    this.loop ??= this.run();
  }

  /** Runs a cycle as soon as the current one is done (webhook, resync). */
  trigger(reason: 'webhook' | 'resync' | 'release'): void {
    this.opts.log.info({ reason }, 'cycle triggered');
    this.requested = reason;
    this.triggered = true;
    this.wake?.();
  }

  /** Stops the loop and the watches; resolves once the cycle in flight has finished. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.wake?.();
    this.watch.stop();
    this.opts.session.cache?.stop();
    await this.loop;
    await this.serial.catch(() => undefined);
    await this.opts.events.flush();
  }

  /** Ready once a full cycle has run (whatever its outcome: a failing platform is not a failing agent). */
  get ready(): boolean {
    return this.cycles > 0;
  }

  private async run(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      this.triggered = false;
      if (this.requested) this.cause = this.requested;
      this.requested = undefined;
      await this.enqueue(() => this.cycle());
      if (signal.aborted) break;
      const failures = this.opts.agent.state.failures;
      const delay = failures > 0 ? this.opts.schedule.backoff(failures) : this.opts.schedule.next();
      this.cause = failures > 0 ? 'retry' : 'interval';
      if (!this.triggered) await this.sleep(delay);
    }
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.serial.then(fn, fn);
    this.serial = next.catch(() => undefined);
    return next;
  }

  private async cycle(): Promise<void> {
    const { agent, metrics, log } = this.opts;
    const started = Date.now();
    const before = agent.state.lastGood?.revision;
    const result = await agent.cycle(this.controller.signal);
    this.lastResult = result;
    this.cycles++;
    const ms = Date.now() - started;
    this.handled = agent.control.reconcile;
    const handledReconcile = this.handled ? { handledReconcile: this.handled } : {};
    if (result.failure) {
      metrics.reconciled(ms, 'failed');
      metrics.reconcileError(result.failure.reason);
      log.warn({ reason: result.failure.reason, revision: result.revision }, result.failure.message);
      await this.report({
        type: 'failed',
        at: new Date(),
        generation: this.generation,
        reason: result.failure.reason,
        message: statusMessage(result.failure, {
          revision: result.revision,
          lastGood: agent.state.lastGood?.revision,
          mode: this.opts.sync.spec.mode ?? 'self-heal',
          suspended: agent.control.suspended !== undefined,
        }),
        ...(result.revision ? { revision: result.revision } : {}),
        transient: ['FetchFailed', 'ObserveFailed', 'ReleasePending'].includes(result.failure.reason),
        openshift: agent.state.openshift,
        ...handledReconcile,
        ...(await this.historyWith(
          result.revision
            ? {
                revision: result.revision,
                at: rfc3339(new Date()),
                outcome: 'failed',
                trigger: this.cause,
                reason: result.failure.reason,
                timings: timingsOf(agent.state.timings),
              }
            : undefined,
        )),
      });
      if (result.failure.reason === 'VerificationFailed' || result.failure.reason === 'ReleaseRefused')
        await this.refusalEvent(result.failure.reason, result.failure.message);
    } else {
      metrics.reconciled(ms, result.applied ? 'applied' : 'noop');
      if (agent.state.lastChanges) metrics.changeSet(agent.state.lastChanges.counts);
      const notOwned = agent.state.lastChanges?.entries.filter((e) => e.code === 'NotOwned') ?? [];
      if (result.applied && notOwned.length > 0)
        log.warn({ objects: notOwned.map((e) => e.id) }, 'inventory entries not owned: not pruned, dropped');
      if (result.revision && result.revision !== before) {
        metrics.appliedRevision(result.revision);
        log.info({ revision: result.revision, ms, timings: agent.state.timings }, 'revision applied');
      } else {
        log.debug({ ms, timings: agent.state.timings, applied: result.applied }, 'cycle');
      }
      const s = agent.state;
      await this.report({
        type: 'reconciled',
        at: new Date(),
        generation: this.generation,
        revision: result.revision!,
        // A suspended cycle without a last good revision planned the fetched one and applied nothing.
        applied: agent.state.lastGood?.revision === result.revision,
        ...(s.lastGood?.commitInfo && s.lastGood.revision === result.revision
          ? { commit: s.lastGood.commitInfo }
          : {}),
        inventory: { objects: s.inventory },
        health: {
          status: s.health?.status ?? 'Unknown',
          reason: s.health?.reason ?? 'Unknown',
          ...(s.health?.message ? { message: s.health.message } : {}),
        },
        drift: this.driftReport(),
        pending: s.pending,
        openshift: s.openshift,
        ...(agent.control.suspended ? { suspended: agent.control.suspended } : {}),
        ...handledReconcile,
        ...(await this.historyWith(
          result.revision && result.revision !== before && s.lastGood?.revision === result.revision
            ? {
                revision: result.revision,
                at: rfc3339(new Date()),
                outcome: 'applied',
                trigger: this.cause,
                ...(s.lastChanges ? { counts: countsOf(s.lastChanges.counts) } : {}),
                timings: timingsOf(s.timings),
              }
            : undefined,
        )),
      });
    }
    metrics.drift(agent.state.drift.length);
    metrics.suspended(agent.control.suspended !== undefined);
    // Watches and caches follow the last good revision's objects: set again when it changes, and
    // after a cycle that found a kind not served yet (its CRD may be there now).
    if (agent.state.lastGood !== this.tracked.good || !this.tracked.all) {
      const { objects, ids } = agent.managed;
      const watched = await this.watch.track(objects, ids);
      const cached = (await this.opts.session.cache?.track(objects, ids)) ?? true;
      this.tracked = { good: agent.state.lastGood, all: watched && cached };
    }
  }

  /** A Warning Event on the PlatformSync: a revision was refused for its signature or a hub release refused (folded when repeated). */
  private async refusalEvent(reason: 'VerificationFailed' | 'ReleaseRefused', note: string): Promise<void> {
    const name = this.syncName;
    if (!name) return;
    try {
      const stored = await this.opts.statusStore.read(name);
      if (stored)
        await this.opts.events.record({
          regarding: stored.object,
          type: 'Warning',
          reason,
          action: reason === 'VerificationFailed' ? 'Verify' : 'Release',
          note,
        });
    } catch (err) {
      this.opts.log.warn({ err: String(err) }, `${reason} event not written`);
    }
  }

  private async checkChanges(changes: ObservedChange[]): Promise<void> {
    if (this.controller.signal.aborted) return;
    const found = await this.opts.agent.checkChanges(changes, this.controller.signal);
    const first = Math.min(...changes.map((c) => c.seenAt));
    if (found.length > 0) {
      this.opts.metrics.driftDetected(Date.now() - first);
      this.opts.log.warn({ objects: found.map((d) => d.id) }, 'drift detected');
    }
    this.opts.metrics.drift(this.opts.agent.state.drift.length);
    await this.report({ type: 'drift', at: new Date(), drift: this.driftReport() });
  }

  /**
   * The requests on the PlatformSync's annotations (suspend); undefined while its name is not known
   * (nothing fetched yet). A failed read keeps the last ones (an apiserver hiccup must not resume a
   * suspended sync).
   */
  private async readControl(): Promise<SyncControl | undefined> {
    const name = this.syncName;
    if (!name) return undefined;
    try {
      const stored = await this.opts.statusStore.read(name);
      return parseSyncControl(stored?.object.metadata.annotations);
    } catch (err) {
      this.opts.log.warn({ err: String(err) }, 'PlatformSync read failed: keeping the last suspend state');
      return this.opts.agent.control;
    }
  }

  /**
   * `{ history }` with `entry` added (see `appendHistory`), or nothing when there is no entry. The
   * stored history is read first when not known yet, so a restarted agent continues it.
   */
  private async historyWith(entry: HistoryEntry | undefined): Promise<{ history?: HistoryEntry[] }> {
    if (!entry) return {};
    const name = this.syncName;
    if (this.history === undefined && name) {
      try {
        const stored = await this.opts.statusStore.read(name);
        this.history = stored?.status?.value.history ?? [];
      } catch (err) {
        this.opts.log.warn({ err: String(err) }, 'PlatformSync read failed: history not updated');
        return {};
      }
    }
    if (this.history === undefined) return {};
    this.history = appendHistory(this.history, entry);
    return { history: this.history };
  }

  private get syncName(): string | undefined {
    const platform = this.platform;
    return this.opts.sync.name ?? (platform ? platformSyncName(platform, this.opts.sync.overlay) : undefined);
  }

  /** The platform's name: from the options, the last good synth, or the last fetched groundwork.yaml. */
  private get platform(): string | undefined {
    const { sync, agent } = this.opts;
    return sync.platform ?? agent.state.lastGood?.synth.platform ?? agent.state.platformName;
  }

  private driftReport(): DriftReport {
    const { sync, agent } = this.opts;
    return new DriftReport(
      this.platform ?? 'platform',
      sync.overlay,
      agent.state.drift,
      agent.state.lastGood?.revision,
    ).withUnmanaged(agent.state.unmanaged);
  }

  private async report(event: Parameters<typeof nextStatus>[1]): Promise<void> {
    try {
      this.status = nextStatus(this.status, event);
      const name = this.syncName;
      if (!name) {
        // No name yet (nothing fetched, no --sync-name): a guessed name would leave a stray object behind.
        this.opts.log.warn(
          'status not written yet: the platform name is known after the first fetch (or pass --sync-name)',
        );
        return;
      }
      await this.opts.statusStore.write(name, this.opts.sync.spec, this.status);
    } catch (err) {
      this.opts.log.warn({ err: String(err) }, 'status write failed');
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      // A reconcile request on the PlatformSync (`groundwork sync reconcile`) ends the sleep.
      const poll = setInterval(() => void this.checkRequest(done), this.opts.controlPollMs ?? 5000);
      function done() {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
      this.wake = done;
    });
  }

  private async checkRequest(done: () => void): Promise<void> {
    const control = await this.readControl();
    const agent = this.opts.agent;
    if (control && !sameSuspend(control.suspended, agent.control.suspended)) {
      // A suspend holds from here on, not from the next interval: the drift watches stop healing
      // now, and a cycle (no fetch while suspended) writes it into the status, which
      // `groundwork sync suspend` waits for. A resume runs that cycle too, and heals.
      agent.control = control;
      this.opts.log.info({ suspended: control.suspended !== undefined }, 'suspend changed');
      this.triggered = true;
      done();
      return;
    }
    if (control?.reconcile && control.reconcile !== this.handled) {
      this.opts.log.info({ request: control.reconcile }, 'reconcile requested');
      this.requested = 'reconcile-request';
      this.triggered = true;
      done();
    }
  }

  /** The agent this runner drives (its state: last good revision, drift, health). */
  get agent(): Agent {
    return this.opts.agent;
  }

  /** The drift watches' kinds (for tests and logs). */
  get watchedKinds(): string[] {
    return this.watch.kinds;
  }
}

/** Whether two suspend requests are the same one (by its reason and when it was asked). */
function sameSuspend(a: SyncControl['suspended'], b: SyncControl['suspended']): boolean {
  return a === undefined || b === undefined ? a === b : a.reason === b.reason && a.at === b.at;
}
