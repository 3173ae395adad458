/**
 * Whether a stream can take an animated spinner: a TTY of a sane size whose terminal understands
 * cursor movement. A 0-column terminal (`stty cols 0`) is a TTY too, and a spinner library
 * computes "lines to clear" as text width / 0 = Infinity there: it then writes escape codes
 * forever and blocks the event loop (no signal handler runs). Anything odd gets plain lines.
 */
export function canAnimate(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(stream.isTTY) &&
    (stream.columns ?? 0) >= MIN_COLUMNS &&
    env.TERM !== 'dumb' &&
    !env.CI &&
    env.GROUNDWORK_PROGRESS !== 'plain'
  );
}

/** Narrower than this, a spinner line wraps on every frame: plain lines instead. */
export const MIN_COLUMNS = 20;

/**
 * Lets through a message for a key at most once per `intervalMs`, or at once when its text
 * changes: repeated "waiting ..." lines in a CI log collapse to one line per interval.
 * Pure apart from the injected clock.
 */
export class LineLimiter {
  private readonly last = new Map<string, { text: string; at: number; skipped: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The line to print for `key` now, with the number of updates held back since the last one
   * (`(+3 updates)`), or undefined to print nothing.
   */
  next(key: string, text: string): string | undefined {
    const at = this.now();
    const prev = this.last.get(key);
    const repeat = prev !== undefined && sameShape(prev.text, text);
    if (repeat && at - prev.at < this.intervalMs) {
      // The same message, or the same with new numbers (elapsed time, counts): held back.
      prev.skipped++;
      prev.text = text;
      return undefined;
    }
    this.last.set(key, { text, at, skipped: 0 });
    return repeat && prev.skipped > 0 ? `${text} (+${prev.skipped} update(s))` : text;
  }
}

/** Two messages that differ only in their numbers. */
function sameShape(a: string, b: string): boolean {
  const shape = (s: string) => s.replace(/\d+(\.\d+)?/g, '#');
  return shape(a) === shape(b);
}
