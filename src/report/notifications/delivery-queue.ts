import type { HttpRequest, Transport } from './http-request.js';
import { DEFAULT_RETRY, nextStep, type RetryPolicy } from './retry.js';

/** What the queue reports: each for one target, never with the request (it may hold a token). */
export interface DeliveryEvents {
  delivered?(target: string): void;
  /** A delivery given up: a 4xx, or every attempt failed. `why` is an HTTP status or a network error's message. */
  failed?(target: string, why: string): void;
  /** An attempt failed and will be retried. */
  retrying?(target: string, why: string, afterMs: number): void;
  /** A delivery dropped unsent: the target's queue was full, or the queue closed. */
  dropped?(target: string): void;
}

export interface DeliveryQueueOptions {
  transport: Transport;
  events?: DeliveryEvents;
  retry?: RetryPolicy;
  /** Deliveries waiting per target; past it the oldest waiting one is dropped. @default 100 */
  capacity?: number;
  /** One attempt is aborted after this long (a receiver that hangs). @default 10_000 */
  attemptTimeoutMs?: number;
  /** For the jitter of retry waits. @default Math.random */
  random?: () => number;
}

interface Item {
  readonly request: HttpRequest;
  /** A later item with the same key replaces this one while it waits (a newer status for the same commit). */
  readonly coalesce?: string;
}

/**
 * Sends requests in the background, one target at a time in order, each target on its own so a
 * target that hangs delays no other. `push` returns at once: the caller (the agent's cycle) never
 * waits on a forge or a receiver. Each target's queue is bounded (`capacity`; the oldest waiting
 * item goes, counted by `dropped`); a failed attempt is retried with `nextStep` (exponential
 * backoff, jitter, Retry-After); each attempt has a timeout.
 *
 * Not durable: what waits when the agent stops is dropped (and counted). Commit statuses are set
 * again after a restart, since the notifier's memory starts empty.
 */
export class DeliveryQueue {
  private readonly queues = new Map<string, Item[]>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly opts: DeliveryQueueOptions) {}

  /** Queues `request` for `target`; returns at once. After `close`, counts it as dropped. */
  push(target: string, request: HttpRequest, opts: { coalesce?: string } = {}): void {
    if (this.stopping.signal.aborted) {
      this.opts.events?.dropped?.(target);
      return;
    }
    const queue = this.queues.get(target) ?? [];
    this.queues.set(target, queue);
    if (opts.coalesce !== undefined) {
      const same = queue.findIndex((i) => i.coalesce === opts.coalesce);
      if (same >= 0) queue.splice(same, 1);
    }
    queue.push({ request, ...(opts.coalesce !== undefined ? { coalesce: opts.coalesce } : {}) });
    while (queue.length > (this.opts.capacity ?? 100)) {
      queue.shift();
      this.opts.events?.dropped?.(target);
    }
    if (!this.running.has(target)) {
      const run = this.drain(target).finally(() => this.running.delete(target));
      this.running.set(target, run);
    }
  }

  /** Deliveries waiting or in flight, per target (for tests and logs). */
  get pending(): number {
    return [...this.queues.values()].reduce((n, q) => n + q.length, 0) + this.running.size;
  }

  /**
   * Waits up to `drainMs` for what is queued, then aborts the attempts in flight and drops the
   * rest (counted). Resolves when every worker has stopped.
   */
  async close(opts: { drainMs?: number } = {}): Promise<void> {
    const all = Promise.all(this.running.values());
    if (opts.drainMs) await Promise.race([all, new Promise((r) => setTimeout(r, opts.drainMs).unref())]);
    this.stopping.abort();
    await Promise.all(this.running.values());
  }

  private async drain(target: string): Promise<void> {
    const queue = this.queues.get(target)!;
    let item: Item | undefined;
    while ((item = queue.shift())) {
      if (this.stopping.signal.aborted) {
        this.opts.events?.dropped?.(target);
        continue;
      }
      await this.deliver(target, item.request);
    }
  }

  private async deliver(target: string, request: HttpRequest): Promise<void> {
    const {
      transport,
      events,
      retry = DEFAULT_RETRY,
      attemptTimeoutMs = 10_000,
      random = Math.random,
    } = this.opts;
    for (let attempt = 1; ; attempt++) {
      const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(attemptTimeoutMs)]);
      const outcome = await transport.send(request, signal).then(
        (r) => ({ type: 'response' as const, ...r }),
        (err: unknown) => ({ type: 'error' as const, message: networkMessage(err, signal) }),
      );
      if (this.stopping.signal.aborted && outcome.type === 'error') {
        events?.dropped?.(target);
        return;
      }
      const step = nextStep(outcome, attempt, retry, random());
      if (step.type === 'done') {
        events?.delivered?.(target);
        return;
      }
      if (step.type === 'give-up') {
        events?.failed?.(target, step.why);
        return;
      }
      events?.retrying?.(target, step.why, step.afterMs);
      if (!(await this.wait(step.afterMs))) {
        events?.dropped?.(target);
        return;
      }
    }
  }

  /** Sleeps `ms`; false when the queue closed meanwhile. */
  private wait(ms: number): Promise<boolean> {
    const signal = this.stopping.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve(true);
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/**
 * A network error's message without anything of the request: `fetch` errors name no URL, but
 * their `cause` may; only the cause's code is kept.
 */
function networkMessage(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? `network error ${cause.code}` : 'network error';
}
