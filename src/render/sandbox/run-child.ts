// What the synth child runs: synth in-process, its outcome as one frame on fd 3 (see protocol.ts).
import fs from 'node:fs';
import { synthesize, synthesizeAll } from '../synth/synthesize.js';
import { encodeFrame, failureOutput, RESULT_FD, type SynthChildOutput } from './protocol.js';
import { guardSignals } from './signal-guard.js';

// Taken before platform code runs, which may replace the globals and module exports it can reach.
const { readFileSync, writeSync } = fs;
const { stringify } = JSON;

/**
 * Synthesizes `<dir> <overlay>|--all` (from `argv`) and writes the outcome as one frame to fd 3.
 * Before platform code loads (`load` imports it; the sandboxed child's bundle passes its built-in
 * copy): reads the frame's nonce from stdin, which the parent writes and closes, and guards
 * `process.kill` and `process._debugProcess` (`guardSignals`). Platform code's own output on stdout and stderr is log output.
 */
export async function runSynthChild(
  load?: () => Promise<unknown>,
  argv = process.argv.slice(2),
): Promise<void> {
  const nonce = readFileSync(0, 'utf8').trim();
  guardSignals();
  const output = await runChild(argv, load);
  const frame = Buffer.from(encodeFrame(nonce, output, stringify));
  for (let done = 0; done < frame.length;) done += writeSync(RESULT_FD, frame, done);
}

async function runChild(argv: readonly string[], load?: () => Promise<unknown>): Promise<SynthChildOutput> {
  const [dir, overlay] = argv;
  if (!dir || !overlay)
    return { ok: false, error: { code: 'Usage', message: 'usage: <dir> <overlay>|--all' } };
  try {
    // No whole-platform checks here: they run once, outside the sandbox, on the rendered result.
    const opts = { checks: [], ...(load ? { load } : {}) };
    const results =
      overlay === '--all' ? await synthesizeAll(dir, opts) : [await synthesize({ ...opts, dir, overlay })];
    return { ok: true, results };
  } catch (err) {
    return failureOutput(err);
  }
}
