import { GroundworkError } from '../core/errors.js';

/** One look at a wait's goal. */
export interface WaitCheck {
  done: boolean;
  /** Human descriptions of what is still pending (shown in progress). */
  pending: string[];
  /** Set to stop waiting with a failure (e.g. a Degraded pool: waiting longer will not help). */
  failed?: string;
  /** Set to stop waiting without failing: the goal is deferred (a pool outside its maintenance window). */
  deferred?: string;
}

interface WaitOptions {
  what: string;
  timeoutMs: number;
  /** @default 500 */
  intervalMs?: number;
  onProgress?: (pending: string[], elapsedMs: number) => void;
  /** Runs before each check (e.g. approving InstallPlans while waiting for CSVs). */
  tick?: () => Promise<void>;
  signal?: AbortSignal;
}

/** How a wait ended when it did not fail. */
export type WaitOutcome =
  { outcome: 'ready'; elapsedMs: number } | { outcome: 'pending'; elapsedMs: number; message: string };

/**
 * Polls `check` until done, deferred, failed, aborted or timed out. Rejects with
 * `WaitTimeout` (naming what is still pending), `WaitFailed` or `Interrupted`.
 */
export async function waitFor(check: () => Promise<WaitCheck>, opts: WaitOptions): Promise<WaitOutcome> {
  const started = Date.now();
  let last: WaitCheck = { done: false, pending: [] };
  let lastReport = 0;
  for (;;) {
    if (opts.signal?.aborted)
      throw new GroundworkError({
        code: 'Interrupted',
        subject: opts.what,
        message: 'stopped while waiting',
      });
    await opts.tick?.();
    last = await check();
    const elapsedMs = Date.now() - started;
    if (last.failed)
      throw new GroundworkError({ code: 'WaitFailed', subject: opts.what, message: last.failed });
    if (last.done) return { outcome: 'ready', elapsedMs };
    if (last.deferred) return { outcome: 'pending', elapsedMs, message: last.deferred };
    if (elapsedMs > opts.timeoutMs) {
      throw new GroundworkError({
        code: 'WaitTimeout',
        subject: opts.what,
        message: `not ready after ${Math.round(opts.timeoutMs / 1000)}s: ${last.pending.slice(0, 5).join('; ')}${last.pending.length > 5 ? ` (+${last.pending.length - 5} more)` : ''}`,
        fix: 'raise --timeout, or look at the objects named above',
      });
    }
    if (elapsedMs - lastReport >= 2000) {
      lastReport = elapsedMs;
      opts.onProgress?.(last.pending, elapsedMs);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
  }
}
