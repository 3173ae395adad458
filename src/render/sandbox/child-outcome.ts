import { GroundworkError } from '../../core/errors.js';
import type { SynthResult } from '../synth/synthesize.js';
import { SynthValidationError } from '../synth/validation.js';
import { decodeFrame } from './protocol.js';

const MiB = 1024 * 1024;

/** Why the parent stopped a child before it ended by itself. */
export type ChildStop = 'timeout' | 'result-cap' | 'log-cap';

/** Everything the parent saw of one synth child, once it has ended. */
export interface ChildOutcome {
  /** The checkout: the subject of every error. */
  dir: string;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stopped?: ChildStop | undefined;
  /** What the child wrote to fd 3 (at most `limits.resultBytes`). */
  frame: Buffer;
  nonce: string;
  /** The last lines the child wrote to stdout and stderr. */
  log: string;
  limits: { timeoutMs: number; heapMb: number; resultBytes: number; logBytes: number };
  /** Maps the checkout a reused bundle was built in to `dir` in messages. @default identity */
  here?: (text: string) => string;
}

/**
 * The results of a synth child, or throws what it ended with: `SynthTimeout`, `SynthOutputTooLarge`
 * (the parent stopped it past a cap), `SynthOutOfMemory` or `SynthCrashed` (no result, or one that
 * `decodeFrame` refuses: forged, malformed, inconsistent), else the child's own error
 * (`SynthValidationError` with every issue, or a `GroundworkError` with the child's code). Pure.
 */
export function settleOutcome(o: ChildOutcome): SynthResult[] {
  const here = o.here ?? ((text: string) => text);
  const fail = (code: 'SynthTimeout' | 'SynthOutputTooLarge', message: string, fix: string) =>
    new GroundworkError({ code, subject: o.dir, message, fix });
  if (o.stopped === 'timeout')
    throw fail(
      'SynthTimeout',
      `synth did not finish within ${o.limits.timeoutMs / 1000}s`,
      'look for an endless loop or a slow computation in the platform code',
    );
  if (o.stopped === 'result-cap')
    throw fail(
      'SynthOutputTooLarge',
      `the synth result is larger than ${o.limits.resultBytes / MiB} MiB: the synth process was stopped`,
      'emit fewer or smaller objects (files inlined into ConfigMaps, CRDs), or raise the cap with GROUNDWORK_SYNTH_OUTPUT_MB',
    );
  if (o.stopped === 'log-cap')
    throw fail(
      'SynthOutputTooLarge',
      `platform code wrote more than ${o.limits.logBytes / MiB} MiB to stdout and stderr: the synth process was stopped`,
      'log less from the platform code; the synth result travels apart from stdout',
    );
  const ended = `synth process ended (${o.exit.signal ?? `exit ${o.exit.code}`})`;
  const lastLines = here(o.log.split('\n').slice(-8).join('\n'));
  if (o.frame.length === 0) {
    const oom = /heap out of memory|Allocation failed/.test(o.log);
    throw new GroundworkError({
      code: oom ? 'SynthOutOfMemory' : 'SynthCrashed',
      subject: o.dir,
      message: `${ended} without a result${oom ? `: over the ${o.limits.heapMb} MiB heap cap` : ''}\n${lastLines}`,
      ...(oom ? { fix: 'look for unbounded data in the platform code' } : {}),
    });
  }
  const decoded = decodeFrame(o.frame, o.nonce);
  if (!decoded.ok)
    throw new GroundworkError({
      code: 'SynthCrashed',
      subject: o.dir,
      message: `${ended}, and ${decoded.problem}`,
      fix: 'platform code must leave the synth result channel (fd 3) and what Groundwork serializes alone',
    });
  const output = decoded.output;
  if (output.ok) return output.results;
  if (output.error.issues) throw new SynthValidationError(output.error.issues);
  throw new GroundworkError({
    code: output.error.code,
    message: here(output.error.message),
    ...(output.error.fix ? { fix: output.error.fix } : {}),
  });
}
