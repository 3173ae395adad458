export interface StreamLimitsOptions {
  /** Open event streams per reader. @default 8 (the page's SharedWorker opens one per browser) */
  perReader?: number;
  /** Open event streams in all. @default 100 */
  total?: number;
  /** What `Retry-After` says, in seconds. @default 30 */
  retryAfterSeconds?: number;
}

/** A stream may open (call `release` once it closes), or not: the status, `Retry-After` and why. */
export type StreamGrant =
  { ok: true; release: () => void } | { ok: false; status: 429 | 503; retryAfter: number; reason: string };

/**
 * How many event streams are open, per reader (an authenticated identity: the TokenReview's user, or
 * the laptop's session) and in all. A reader at its cap gets 429 and others are unaffected; when
 * every stream is taken, 503. `release` is idempotent; a reader with no stream open is forgotten, so
 * the table never holds more readers than streams.
 */
export class StreamLimits {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(private readonly opts: StreamLimitsOptions = {}) {}

  acquire(reader: string): StreamGrant {
    const retryAfter = this.opts.retryAfterSeconds ?? 30;
    const perReader = this.opts.perReader ?? 8;
    const mine = this.open.get(reader) ?? 0;
    if (mine >= perReader)
      return {
        ok: false,
        status: 429,
        retryAfter,
        reason: `you have ${mine} live dashboards open (at most ${perReader} per reader): close some tabs or browsers`,
      };
    if (this.total >= (this.opts.total ?? 100))
      return { ok: false, status: 503, retryAfter, reason: 'too many open dashboards' };
    this.open.set(reader, mine + 1);
    this.total++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const left = (this.open.get(reader) ?? 1) - 1;
        if (left > 0) this.open.set(reader, left);
        else this.open.delete(reader);
      },
    };
  }

  /** Streams open now: in all, and of one reader. */
  count(reader?: string): number {
    return reader === undefined ? this.total : (this.open.get(reader) ?? 0);
  }
}
