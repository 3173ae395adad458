import { ApiError } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { LeaseStore, microTime, type Lease, type LeaseSpec } from '../cluster/lease-store.js';
import { GroundworkError } from '../core/errors.js';

export interface LeaderElectorOptions {
  client: KubeClient;
  /** Name of the Lease, e.g. `groundwork-agent-<platform>-<overlay>`. */
  name: string;
  namespace: string;
  /** Unique per replica, e.g. the pod name. */
  identity: string;
  /** How long a lease is valid after a holder's last renewal, as others observe it. @default 15_000 */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a failed renewal before it steps down. @default 10_000 */
  renewDeadlineMs?: number;
  /** Wait between attempts to acquire or renew. @default 2_000 */
  retryPeriodMs?: number;
  /**
   * Called when this replica becomes the leader. `signal` aborts when it stops leading; the work must
   * then stop promptly: the elector waits for the returned promise before releasing the lease or
   * campaigning again. A rejection makes the elector step down, release the lease and `run()` reject.
   */
  onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  /** Called after the work has stopped, whenever this replica stops leading (lost or stopped). */
  onStoppedLeading?: () => void;
  /** Called when the observed holder changes (`''` when the lease is free). */
  onNewLeader?: (identity: string) => void;
}

type Attempt = 'ok' | 'held' | 'error';

/**
 * Leader election over a `coordination.k8s.io/v1` Lease, as client-go's leaderelection does it:
 * - a candidate takes the lease when it is free (no `holderIdentity`) or expired: the holder's record
 *   has not changed for `leaseDuration` *as this replica observed it* (a local monotonic clock; the
 *   `renewTime` written by other replicas is never compared with our clock);
 * - the leader renews every `retryPeriod` (an update with the resourceVersion it read, so two writers
 *   cannot both win) and steps down (aborts the work's signal) when it has not renewed for
 *   `renewDeadline`, or at once when it sees another holder;
 * - `stop({ release: true })` waits for the work to end, then clears `holderIdentity` so a standby
 *   takes over at its next attempt instead of waiting for expiry.
 *
 * Unlike client-go's `Run`, `run()` campaigns again after losing the lease, until `stop()`.
 * There is no jitter: with a handful of replicas it only delays takeover.
 *
 * @example
 * const elector = new LeaderElector({ client, name: 'groundwork-agent', namespace, identity: pod,
 *   onStartedLeading: (signal) => agent.run(signal) });
 * void elector.run();
 * process.on('SIGTERM', () => elector.stop({ release: true }));
 */
export class LeaderElector {
  private readonly store: LeaseStore;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private observed: { json: string; at: number; lease: Lease } | undefined;
  private reportedLeader: string | undefined;
  private stopper = new AbortController();
  private release = false;
  private running: Promise<void> | undefined;
  private leading = false;
  private workError: { error: unknown } | undefined;
  /** When the last successful acquire or renew attempt started (monotonic clock). */
  private renewedAt = 0;
  /** The last failed attempt's error (a Conflict, a timeout, a network error), for diagnostics. */
  lastError: unknown;

  constructor(private readonly opts: LeaderElectorOptions) {
    this.leaseDurationMs = opts.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = opts.retryPeriodMs ?? 2_000;
    if (!(
      this.leaseDurationMs > this.renewDeadlineMs &&
      this.renewDeadlineMs > this.retryPeriodMs &&
      this.retryPeriodMs > 0
    ))
      throw new GroundworkError({
        code: 'InvalidLeaderElection',
        subject: `Lease ${opts.namespace}/${opts.name}`,
        message: `need leaseDuration > renewDeadline > retryPeriod > 0, got ${this.leaseDurationMs}/${this.renewDeadlineMs}/${this.retryPeriodMs} ms`,
        fix: 'use the defaults (15000/10000/2000 ms) or keep their order',
      });
    if (!opts.identity)
      throw new GroundworkError({ code: 'InvalidLeaderElection', message: 'identity is empty' });
    this.store = new LeaseStore(opts.client, opts.namespace, opts.name);
  }

  /** True while this replica holds the lease and its work runs. */
  get isLeader(): boolean {
    return this.leading;
  }

  /** The holder last observed (`''` when free, undefined before the first read). */
  get leader(): string | undefined {
    return this.reportedLeader;
  }

  /** Campaigns, leads, and campaigns again after a loss, until `stop()`. Resolves once stopped. */
  run(): Promise<void> {
    if (this.running) return this.running;
    this.stopper = new AbortController();
    this.release = false;
    this.workError = undefined;
    this.running = this.loop();
    return this.running;
  }

  /**
   * Stops campaigning or leading. With `release`, the work is stopped first, then the lease is
   * cleared so another replica takes over at once; without it the lease is simply no longer renewed
   * (as after a crash) and expires after `leaseDuration`.
   */
  async stop(opts: { release?: boolean } = {}): Promise<void> {
    this.release = opts.release ?? false;
    this.stopper.abort();
    await this.running?.catch(() => undefined);
  }

  private async loop(): Promise<void> {
    const stop = this.stopper.signal;
    try {
      while (!stop.aborted) {
        if (!(await this.acquire(stop))) break;
        const work = this.startWork();
        const lost = await this.renewUntilLost(stop);
        await work.stop();
        if (!lost && this.release) await this.releaseLease();
        this.leading = false;
        this.opts.onStoppedLeading?.();
      }
    } finally {
      this.running = undefined;
    }
    if (this.workError) throw this.workError.error;
  }

  private async acquire(stop: AbortSignal): Promise<boolean> {
    while (!stop.aborted) {
      if ((await this.tryAcquireOrRenew(stop)) === 'ok') return true;
      await sleep(this.untilNextAttempt(), stop);
    }
    return false;
  }

  /** Renews every retry period; true when the lease was lost, false when stopped. */
  private async renewUntilLost(stop: AbortSignal): Promise<boolean> {
    while (!stop.aborted) {
      await sleep(this.retryPeriodMs, stop);
      for (;;) {
        if (stop.aborted) return false;
        const deadline = this.renewedAt + this.renewDeadlineMs;
        const left = deadline - performance.now();
        if (left <= 0) return true;
        const result = await this.tryAcquireOrRenew(
          AbortSignal.any([stop, AbortSignal.timeout(Math.ceil(left))]),
        );
        if (result === 'ok') break;
        if (result === 'held') return true;
        await sleep(Math.min(this.retryPeriodMs, deadline - performance.now()), stop);
      }
    }
    return false;
  }

  /** One attempt, as client-go's tryAcquireOrRenew. */
  private async tryAcquireOrRenew(signal: AbortSignal): Promise<Attempt> {
    const result = await this.attempt(signal);
    // The renew deadline counts from when a successful attempt started: others may have seen the
    // record change as early as that.
    if (result.attempt === 'ok') this.renewedAt = result.startedAt;
    return result.attempt;
  }

  private async attempt(signal: AbortSignal): Promise<{ attempt: Attempt; startedAt: number }> {
    const startedAt = performance.now();
    const ok = { attempt: 'ok' as const, startedAt };
    const now = new Date();
    const seconds = Math.ceil(this.leaseDurationMs / 1000);
    try {
      // Fast path: the leader updates the lease it last wrote without reading it first.
      if (this.leading && this.observed?.lease.spec?.holderIdentity === this.opts.identity) {
        const mine = this.observed.lease.spec;
        try {
          this.observe(
            await this.store.update(this.observed.lease, this.renewal(mine, now, seconds), signal),
          );
          return ok;
        } catch (err) {
          if (!(err instanceof ApiError && err.reason === 'Conflict')) throw err;
        }
      }
      const lease = await this.store.get(signal);
      if (!lease) {
        const spec: LeaseSpec = {
          holderIdentity: this.opts.identity,
          leaseDurationSeconds: seconds,
          acquireTime: microTime(now),
          renewTime: microTime(now),
          leaseTransitions: 0,
        };
        this.observe(await this.store.create(spec, signal));
        return ok;
      }
      const record = lease.spec ?? {};
      this.observe(lease);
      const holder = record.holderIdentity ?? '';
      const observedAt = this.observed?.at ?? 0;
      if (
        holder &&
        holder !== this.opts.identity &&
        observedAt + (record.leaseDurationSeconds ?? 0) * 1000 > performance.now()
      )
        return { attempt: 'held', startedAt };
      this.observe(await this.store.update(lease, this.renewal(record, now, seconds), signal));
      return ok;
    } catch (err) {
      // Conflicts (another replica wrote first), AlreadyExists, timeouts and network errors: the
      // loops try again after a retry period (and the leader steps down at its renew deadline).
      this.lastError = err;
      return { attempt: 'error', startedAt };
    }
  }

  private renewal(record: LeaseSpec, now: Date, seconds: number): LeaseSpec {
    const mine = record.holderIdentity === this.opts.identity;
    return {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: seconds,
      acquireTime: mine && record.acquireTime ? record.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: mine ? (record.leaseTransitions ?? 0) : (record.leaseTransitions ?? 0) + 1,
    };
  }

  /** Records a lease read or written; the observation time moves only when the record changed. */
  private observe(lease: Lease): void {
    const json = JSON.stringify(lease.spec ?? {});
    if (json !== this.observed?.json) this.observed = { json, at: performance.now(), lease };
    else this.observed.lease = lease;
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      this.opts.onNewLeader?.(holder);
    }
  }

  /** Until the next attempt: the retry period, or sooner when the observed lease expires before it. */
  private untilNextAttempt(): number {
    const o = this.observed;
    const holder = o?.lease.spec?.holderIdentity;
    if (!o || !holder || holder === this.opts.identity) return this.retryPeriodMs;
    const expiresIn = o.at + (o.lease.spec?.leaseDurationSeconds ?? 0) * 1000 - performance.now();
    return Math.max(1, Math.min(this.retryPeriodMs, expiresIn + 1));
  }

  private startWork(): { stop: () => Promise<void> } {
    this.leading = true;
    const controller = new AbortController();
    const done = (async () => this.opts.onStartedLeading(controller.signal))().catch((error: unknown) => {
      // The work failed: step down and hand the lease over.
      this.workError = { error };
      this.release = true;
      this.stopper.abort();
    });
    return {
      stop: async () => {
        controller.abort();
        await done;
      },
    };
  }

  /** Clears the holder so another replica can take over at once; only if we still hold the lease. */
  private async releaseLease(): Promise<void> {
    const signal = AbortSignal.timeout(this.renewDeadlineMs);
    const lease = await this.store.get(signal).catch(() => undefined);
    if (!lease || lease.spec?.holderIdentity !== this.opts.identity) return;
    const now = microTime(new Date());
    await this.store
      .update(
        lease,
        {
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: lease.spec.leaseTransitions ?? 0,
        },
        signal,
      )
      .then((released) => this.observe(released))
      .catch(() => undefined); // someone else wrote it meanwhile: it is no longer ours to release
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
