/**
 * Progress of long-running work (building binaries, starting processes), as events.
 * The CLI renders them with a spinner; tests and libraries pass `silentProgress`.
 */
export interface Progress {
  /** A new step starts; replaces the current one. */
  start(text: string): void;
  /** The current step reports news (e.g. a package count and elapsed time). */
  update(text: string): void;
  /** The current step finished successfully. */
  succeed(text: string): void;
  /** The current step failed. */
  fail(text: string): void;
  /** A standalone informational line. */
  info(text: string): void;
}

export const silentProgress: Progress = {
  start() {},
  update() {},
  succeed() {},
  fail() {},
  info() {},
};

/** Formats elapsed milliseconds as `1m05s` / `12.3s`. */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
