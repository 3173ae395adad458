import ora, { type Ora } from 'ora';
import type { ApplyEvent, ApplyListener } from '../apply/events.js';
import { formatElapsed } from '../controlplane/progress.js';
import { STAGES } from '../plan/stages.js';

/**
 * Renders apply progress on stderr: the stage with done/total, and the current wait with what
 * it still waits for. A spinner on a TTY; plain lines (at most one per stage step) otherwise.
 */
export function applyProgress(opts: { quiet?: boolean } = {}): ApplyListener {
  if (opts.quiet) return () => {};
  const tty = Boolean(process.stderr.isTTY);
  let spinner: Ora | undefined;
  const stageNo = (stage: string) =>
    `[${STAGES.findIndex((s) => s.name === stage) + 1}/${STAGES.length}] ${stage}`;
  const line = (text: string) => {
    if (tty) {
      spinner ??= ora({ stream: process.stderr }).start();
      spinner.text = text;
    } else process.stderr.write(`${text}\n`);
  };
  const persist = (text: string) => {
    if (tty && spinner) {
      spinner.stopAndPersist({ symbol: '✔', text });
      spinner = undefined;
    } else process.stderr.write(`${text}\n`);
  };
  return (e: ApplyEvent) => {
    switch (e.type) {
      case 'stage-start':
        line(`${stageNo(e.stage)}: applying 0/${e.total}`);
        break;
      case 'object':
        if (tty || e.done === e.total) line(`${stageNo(e.stage)}: applying ${e.done}/${e.total}`);
        if (e.action === 'failed') process.stderr.write(`  ✖ ${e.message ?? e.id}\n`);
        break;
      case 'wait-start':
        line(`${stageNo(e.stage)}: waiting for ${e.what} (timeout ${formatElapsed(e.timeoutMs)})`);
        break;
      case 'wait-progress':
        line(
          `${stageNo(e.stage)}: waiting ${formatElapsed(e.elapsedMs)} for ${e.pending.length} item(s): ${e.pending.slice(0, 2).join('; ')}`,
        );
        break;
      case 'wait-done':
        persist(
          `${stageNo(e.stage)}: ${e.outcome === 'ready' ? 'ready' : 'pending'} after ${formatElapsed(e.elapsedMs)} (${e.what})`,
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
