/**
 * What every simulator offers: one deterministic reconcile pass (`tick`) for tests, and a polling
 * loop (`start`/`stop`) for the quick start.
 */
export interface Simulator {
  /** One reconcile pass: reads with LIST/GET, writes only what changed. */
  tick(): Promise<void>;
  /** Runs `tick` every `intervalMs` (after the previous pass finished) until `stop`. */
  start(intervalMs?: number): void;
  /** Stops the loop and waits for a running pass to finish. */
  stop(): Promise<void>;
}

/** How a simulator loop reports a failed pass. @default errors are kept in `lastError` only */
export type ErrorHandler = (err: unknown) => void;

/**
 * Runs a pass function in a loop, one pass at a time: a pass never overlaps the next, so a slow
 * apiserver stretches the interval instead of piling up requests. A failing pass does not stop
 * the loop (real controllers requeue); the error goes to `onError` and `lastError`.
 */
export class PollingLoop {
  lastError: unknown;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private active = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError?: ErrorHandler,
  ) {}

  start(intervalMs: number): void {
    if (this.active) return;
    this.active = true;
    const loop = (): void => {
      if (!this.active) return;
      this.running = this.pass()
        .catch((err: unknown) => {
          this.lastError = err;
          this.onError?.(err);
        })
        .finally(() => {
          this.running = undefined;
          if (this.active) this.timer = setTimeout(loop, intervalMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
