/**
 * Runs tasks at most `limit` at a time, and tasks that share a key one after another, in the order
 * they were added. The registration controller answers registrations with it: many at once (each
 * is a dozen requests that wait on the apiserver), never two presenting the same token at once, so
 * one process never races itself to spend a token (the conditional update still guards against
 * another process). A task's error is handed to `onError` and stops nothing else. Does no I/O.
 */
export class KeyedPool {
  private readonly waiting: { key: string; run: () => Promise<void> }[] = [];
  private readonly busyKeys = new Set<string>();
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be a positive integer: ${limit}`);
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks added and not yet started. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Adds `task` under `key`; it starts once a slot is free and no task of `key` runs. */
  add(key: string, task: () => Promise<void>): void {
    this.waiting.push({ key, run: task });
    this.pump();
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limit;) {
      const next = this.waiting[i]!;
      if (this.busyKeys.has(next.key)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.start(next.key, next.run);
    }
    if (this.running === 0 && this.waiting.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private start(key: string, run: () => Promise<void>): void {
    this.running++;
    this.busyKeys.add(key);
    void Promise.resolve()
      .then(run)
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running--;
        this.busyKeys.delete(key);
        this.pump();
      });
  }
}
