import type { SynthResult } from '../synthesize.js';
import type { ValidationIssue } from '../validation.js';

/** What the synth child writes to stdout: results, or the error with every validation issue. */
export type SynthChildOutput =
  | { ok: true; results: SynthResult[] }
  | { ok: false; error: { code: string; message: string; fix?: string; issues?: ValidationIssue[] } };
