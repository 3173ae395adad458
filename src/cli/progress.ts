import ora, { type Ora } from 'ora';
import type { Progress } from '../core/progress.js';
import { canAnimate } from './terminal.js';

/**
 * Terminal progress for long steps: an animated spinner on a TTY, plain
 * `[groundwork] ...` lines otherwise (CI logs), written to stderr so stdout stays parseable.
 */
export function terminalProgress(opts: { quiet?: boolean } = {}): Progress {
  if (opts.quiet) return { start() {}, update() {}, succeed() {}, fail() {}, info() {} };
  const tty = canAnimate(process.stderr);
  let spinner: Ora | undefined;
  let lastLine = 0;
  const line = (text: string) => process.stderr.write(`[groundwork] ${text}\n`);
  return {
    start(text) {
      if (tty) {
        spinner?.stop();
        spinner = ora({ text, stream: process.stderr }).start();
      } else line(text);
    },
    update(text) {
      if (tty && spinner && !canAnimate(process.stderr)) {
        spinner.stop(); // the terminal shrank to nothing: plain lines from here on
        spinner = undefined;
      }
      if (tty && spinner) spinner.text = text;
      // Without a TTY, print news at most every 15 s so CI logs show the build is alive.
      else if (!tty && Date.now() - lastLine > 15_000) {
        lastLine = Date.now();
        line(text);
      }
    },
    succeed(text) {
      if (tty && spinner) {
        spinner.succeed(text);
        spinner = undefined;
      } else line(`✔ ${text}`);
    },
    fail(text) {
      if (tty && spinner) {
        spinner.fail(text);
        spinner = undefined;
      } else line(`✖ ${text}`);
    },
    info(text) {
      if (tty && spinner) spinner.info(text);
      else line(text);
    },
  };
}
