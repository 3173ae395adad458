import { GroundworkError } from '../../core/errors.js';
import type { SynthResult } from '../synth/synthesize.js';
import { SynthValidationError } from '../synth/validation.js';
import { decodeFrame, type FrameExpectations } from './protocol.js';
import { LOG_CAP_BYTES, type ChildStop } from './supervise.js';

const MiB = 1024 * 1024;

export type { ChildStop } from './supervise.js';

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
  limits: { timeoutMs: number; heapMb: number; rssMb?: number; resultBytes: number };
  /** Maps the checkout a reused bundle was built in to `dir` in messages. @default identity */
  here?: (text: string) => string;
  /** What the frame must hold besides its schema (`decodeFrame`). @default no more */
  expect?: FrameExpectations;
}

/**
 * The results of a synth child, or throws what it ended with: `SynthTimeout`, `SynthOutputTooLarge`
 * (the parent stopped it past a cap), `SynthOutOfMemory` (past its memory budget, or its heap or
 * data limit gave out) or `SynthCrashed` (no result, or one that
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
      `platform code wrote more than ${LOG_CAP_BYTES / MiB} MiB to stdout and stderr: the synth process was stopped`,
      'log less from the platform code; the synth result travels apart from stdout',
    );
  if (o.stopped === 'memory')
    throw new GroundworkError({
      code: 'SynthOutOfMemory',
      subject: o.dir,
      message: `the synth process went over its ${o.limits.rssMb ?? o.limits.heapMb} MiB memory budget (resident memory, buffers included) and was stopped`,
      fix: 'look for unbounded data in the platform code (large Buffers and strings count too)',
    });
  const ended = `synth process ended (${o.exit.signal ?? `exit ${o.exit.code}`})`;
  const lastLines = here(o.log.split('\n').slice(-8).join('\n'));
  if (o.frame.length === 0) {
    const oom = /heap out of memory|Allocation failed|allocation failed/.test(o.log);
    throw new GroundworkError({
      code: oom ? 'SynthOutOfMemory' : 'SynthCrashed',
      subject: o.dir,
      message: `${ended} without a result${oom ? `: over the ${o.limits.heapMb} MiB heap cap` : ''}\n${lastLines}`,
      ...(oom ? { fix: 'look for unbounded data in the platform code' } : {}),
    });
  }
  const decoded = decodeFrame(o.frame, o.nonce, { capBytes: o.limits.resultBytes, ...o.expect });
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
    ...(output.error.subject ? { subject: here(output.error.subject) } : {}),
    message: here(output.error.message),
    ...(output.error.fix ? { fix: output.error.fix } : {}),
  });
}
