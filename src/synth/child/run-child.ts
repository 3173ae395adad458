// What the synth child runs: synth in-process, one JSON document (SynthChildOutput) on stdout.
import { GroundworkError } from '../../core/errors.js';
import { POST_SYNTH_CHECKS } from '../../engine/domains.js';
import { synthesize, synthesizeAll } from '../synthesize.js';
import { SynthValidationError } from '../validation.js';
import type { SynthChildOutput } from './protocol.js';

/**
 * Synthesizes `<dir> <overlay>|--all` (from `argv`) and writes the outcome to stdout. `load`
 * imports the platform module; the sandboxed child's bundle passes its built-in copy.
 */
export async function runChildToStdout(
  load?: () => Promise<unknown>,
  argv = process.argv.slice(2),
): Promise<void> {
  const output = await runChild(argv, load);
  process.stdout.write(JSON.stringify(output));
}

async function runChild(argv: readonly string[], load?: () => Promise<unknown>): Promise<SynthChildOutput> {
  const [dir, overlay] = argv;
  if (!dir || !overlay)
    return { ok: false, error: { code: 'Usage', message: 'usage: <dir> <overlay>|--all' } };
  try {
    // The child is a program of its own: it hands synth the domains' checks (src/engine/domains.ts).
    const opts = { checks: POST_SYNTH_CHECKS, ...(load ? { load } : {}) };
    const results =
      overlay === '--all' ? await synthesizeAll(dir, opts) : [await synthesize({ ...opts, dir, overlay })];
    return { ok: true, results };
  } catch (err) {
    if (err instanceof SynthValidationError) {
      return { ok: false, error: { code: err.code, message: err.message, issues: [...err.issues] } };
    }
    if (err instanceof GroundworkError) {
      return {
        ok: false,
        error: { code: err.code, message: err.message, ...(err.fix ? { fix: err.fix } : {}) },
      };
    }
    return {
      ok: false,
      error: {
        code: 'BuildFailed',
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
      },
    };
  }
}
