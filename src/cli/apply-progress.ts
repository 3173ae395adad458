import ora, { type Ora } from 'ora';
import type { ApplyEvent, ApplyListener } from '../apply/apply-events.js';
import { formatElapsed } from '../core/progress.js';
import { STAGES } from '../core/stages.js';
import { canAnimate, LineLimiter } from './terminal.js';

/**
 * Renders apply progress on stderr: the stage with done/total, and the current wait with what
 * it still waits for. A spinner on a sane TTY (see `canAnimate`); otherwise plain lines, with
 * repeated waits held to one line per interval.
 */
export function applyProgress(
  opts: {
    quiet?: boolean;
    /** @default process.stderr */
    stream?: NodeJS.WriteStream;
    /** Plain-line output: repeated waits at most once per interval. @default 30_000 */
    intervalMs?: number;
    now?: () => number;
  } = {},
): ApplyListener {
  if (opts.quiet) return () => {};
  const stream = opts.stream ?? process.stderr;
  let spinner: Ora | undefined;
  let once = false;
  const limiter = new LineLimiter(opts.intervalMs ?? 30_000, opts.now);
  const stageNo = (stage: string) =>
    `[${STAGES.findIndex((s) => s.name === stage) + 1}/${STAGES.length}] ${stage}`;
  // Checked on every line: a terminal can shrink to nothing mid-run.
  const animate = () => {
    const ok = canAnimate(stream);
    if (!ok && spinner) {
      spinner.stop();
      spinner = undefined;
    }
    return ok;
  };
  const tty = animate();
  const line = (text: string, key = 'line') => {
    if (animate()) {
      spinner ??= ora({ stream }).start();
      spinner.text = text;
    } else {
      const shown = limiter.next(key, text);
      if (shown !== undefined) stream.write(`${shown}\n`);
    }
  };
  const persist = (text: string) => {
    if (animate() && spinner) {
      spinner.stopAndPersist({ symbol: '✔', text });
      spinner = undefined;
    } else stream.write(`${text}\n`);
  };
  return (e: ApplyEvent) => {
    switch (e.type) {
      case 'stage-start':
        line(`${stageNo(e.stage)}: applying 0/${e.total}`);
        break;
      case 'object':
        if (tty || e.done === e.total) line(`${stageNo(e.stage)}: applying ${e.done}/${e.total}`);
        if (e.action === 'failed') stream.write(`  ✖ ${e.message ?? e.id}\n`);
        break;
      case 'wait-start':
        once = e.once === true;
        line(
          once
            ? `${stageNo(e.stage)}: checking ${e.what} once (--no-wait)`
            : `${stageNo(e.stage)}: waiting for ${e.what} (timeout ${formatElapsed(e.timeoutMs)})`,
        );
        break;
      case 'wait-progress':
        line(
          `${stageNo(e.stage)}: waiting ${formatElapsed(e.elapsedMs)} for ${e.pending.length} item(s): ${e.pending.slice(0, 2).join('; ')}`,
          `wait ${e.stage} ${e.what}`,
        );
        break;
      case 'wait-done':
        persist(
          once
            ? `${stageNo(e.stage)}: ${e.outcome === 'ready' ? 'ready' : 'not ready yet, not waited for'} (${e.what})`
            : `${stageNo(e.stage)}: ${e.outcome === 'ready' ? 'ready' : 'pending'} after ${formatElapsed(e.elapsedMs)} (${e.what})`,
        );
        break;
      case 'stage-done':
        persist(`${stageNo(e.stage)}: done`);
        break;
      case 'prune-start':
        line(`pruning ${e.total} object(s)`);
        break;
      case 'prune-refused':
        persist(`prune refused (${e.reason}): ${e.message}`);
        break;
      case 'notice':
        persist(`${stageNo(e.stage)}: ${e.message}`);
        break;
      case 'inventory-written':
        break;
    }
  };
}
