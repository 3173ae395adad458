interface PollScheduleOptions {
  /** Time between two polls when all is well, in milliseconds. */
  readonly intervalMs: number;
  /** Fraction of the delay that is randomized: 0.1 gives interval ± 10 %. @default 0.1 */
  readonly jitter?: number;
  /** Delay after the first consecutive failure, in milliseconds. @default 1000 */
  readonly backoffBaseMs?: number;
  /** Longest delay after failures, in milliseconds. @default 300000 (5 minutes) */
  readonly backoffMaxMs?: number;
  /** Uniform random numbers in [0, 1). @default Math.random */
  readonly random?: () => number;
}

/**
 * When to poll the git source next. Pure apart from the injected `random`: it keeps no clock and
 * no failure count (the caller counts consecutive failures and sleeps itself).
 *
 * Jitter spreads agents that started together (a fleet rolled out at once) so they do not poll
 * the git server in lockstep.
 *
 * @example
 * const schedule = new PollSchedule({ intervalMs: 60_000 });
 * const delay = failures === 0 ? schedule.next() : schedule.backoff(failures);
 */
export class PollSchedule {
  readonly intervalMs: number;
  readonly jitter: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  private readonly random: () => number;

  constructor(opts: PollScheduleOptions) {
    this.intervalMs = positive('intervalMs', opts.intervalMs);
    this.jitter = opts.jitter ?? 0.1;
    if (!(this.jitter >= 0 && this.jitter < 1))
      throw new RangeError(`jitter must be in [0, 1), got ${this.jitter}`);
    this.backoffBaseMs = positive('backoffBaseMs', opts.backoffBaseMs ?? 1000);
    this.backoffMaxMs = positive('backoffMaxMs', opts.backoffMaxMs ?? 300_000);
    if (this.backoffMaxMs < this.backoffBaseMs)
      throw new RangeError('backoffMaxMs must not be below backoffBaseMs');
    this.random = opts.random ?? Math.random;
  }

  /** Delay before the next poll after a success: `intervalMs` ± `jitter`, uniformly. */
  next(): number {
    return Math.round(this.intervalMs * (1 + this.jitter * (2 * this.random() - 1)));
  }

  /**
   * Delay before retrying after `failures` consecutive failures (1 for the first):
   * `backoffBaseMs · 2^(failures-1)`, capped at `backoffMaxMs`, then shortened by up to `jitter`
   * (never lengthened, so the cap holds). `failures` below 1 counts as 1.
   */
  backoff(failures: number): number {
    const n = Math.max(1, Math.floor(failures));
    // 2^(n-1) overflows to Infinity past n≈1024; min() keeps the cap.
    const capped = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** (n - 1));
    return Math.round(capped * (1 - this.jitter * this.random()));
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}
