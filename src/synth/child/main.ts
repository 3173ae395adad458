// The synth child process: `node --import register-hooks.mjs main.ts <dir> <overlay>|--all`.
// Runs synth in-process and writes one JSON document (SynthChildOutput) to stdout.
import { GroundworkError } from '../../core/errors.js';
import { synthesize, synthesizeAll } from '../synthesize.js';
import { SynthValidationError } from '../validation.js';
import type { SynthChildOutput } from './protocol.js';

async function run(): Promise<SynthChildOutput> {
  const [dir, overlay] = process.argv.slice(2);
  if (!dir || !overlay)
    return { ok: false, error: { code: 'Usage', message: 'usage: main.ts <dir> <overlay>|--all' } };
  try {
    const results = overlay === '--all' ? await synthesizeAll(dir) : [await synthesize({ dir, overlay })];
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

const output = await run();
process.stdout.write(JSON.stringify(output));
