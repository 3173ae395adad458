export interface AccessCacheOptions {
  /** How long an answer is reused. @default 30000 */
  ttlMs?: number;
  /** Answers kept at most (all readers together); the oldest go first. @default 20000 */
  maxEntries?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Authorization answers by key (a reader's identity and the attributes asked), kept `ttlMs` and at
 * most `maxEntries`, shared by every reader: as kube-rbac-proxy and the apiserver's webhook
 * authorizer cache theirs. Concurrent asks of one key share one review; a review that fails is not
 * kept (asked again next time). A permission removed takes effect within `ttlMs`.
 */
export class AccessCache {
  private readonly answers = new Map<string, { until: number; allowed: boolean }>();
  private readonly pending = new Map<string, Promise<boolean>>();
  /** Reviews asked (cache misses), for measurements. */
  reviews = 0;

  constructor(private readonly opts: AccessCacheOptions = {}) {}

  /** The kept answer for `key` when there is one still valid; asks nothing. */
  peek(key: string): boolean | undefined {
    const hit = this.answers.get(key);
    return hit && hit.until > (this.opts.now ?? Date.now)() ? hit.allowed : undefined;
  }

  /** The kept answer for `key`, else `review()`'s (kept when it resolves). */
  get(key: string, review: () => Promise<boolean>): Promise<boolean> {
    const now = (this.opts.now ?? Date.now)();
    const hit = this.answers.get(key);
    if (hit && hit.until > now) return Promise.resolve(hit.allowed);
    if (hit) this.answers.delete(key);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    this.reviews++;
    const asked = review().then(
      (allowed) => {
        this.pending.delete(key);
        if (this.answers.size >= (this.opts.maxEntries ?? 20_000))
          this.answers.delete(this.answers.keys().next().value!);
        this.answers.set(key, {
          until: (this.opts.now ?? Date.now)() + (this.opts.ttlMs ?? 30_000),
          allowed,
        });
        return allowed;
      },
      (err: unknown) => {
        this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, asked);
    return asked;
  }

  /** Answers kept now (expired ones included until they are asked again or pushed out). */
  get size(): number {
    return this.answers.size;
  }
}
