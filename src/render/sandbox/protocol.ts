import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../core/errors.js';
import { idOf } from '../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../core/object.js';
import { isStageName, stageOf, type StageName } from '../../core/stages.js';
import { renderRequestSchema } from '../recorded/render-request.js';
import type { SynthResult } from '../synth/synthesize.js';
import type { ValidationIssue } from '../synth/validation.js';

/**
 * What the synth child sends back: results, or the error with every validation issue. It travels
 * as one frame on the child's fd 3 (`encodeFrame`), never on stdout: platform code that prints
 * (`console.log`) writes to stdout, which the parent reads as log output.
 */
export type SynthChildOutput =
  | { ok: true; results: SynthResult[] }
  | { ok: false; error: { code: ErrorCode; message: string; fix?: string; issues?: ValidationIssue[] } };

/** The child's fd that carries the frame (a pipe of its own, after stdin, stdout and stderr). */
export const RESULT_FD = 3;

/**
 * A frame: the nonce the parent gave this child (on its stdin, read before platform code loads),
 * a newline, and the output as JSON. Platform code that writes to fd 3 itself does not know the
 * nonce, so its bytes never pass for a result.
 */
export function encodeFrame(nonce: string, output: SynthChildOutput, stringify = JSON.stringify): string {
  return `${nonce}\n${stringify(output)}`;
}

const issueSchema = z.strictObject({
  path: z.string(),
  field: z.string(),
  message: z.string(),
  fix: z.string().optional(),
  severity: z.enum(['error', 'warning']),
  overlay: z.string().optional(),
  from: z.string().optional(),
  at: z.string().optional(),
});

/** Checked by a guard, not copied: the object keeps every field, `__proto__` keys included. */
const objectSchema = z.custom<K8sObject>(
  (v) =>
    isPlainObject(v) &&
    typeof v.apiVersion === 'string' &&
    typeof v.kind === 'string' &&
    isPlainObject(v.metadata) &&
    typeof v.metadata.name === 'string' &&
    v.metadata.name !== '' &&
    (v.metadata.namespace === undefined || typeof v.metadata.namespace === 'string'),
  { message: 'expected a Kubernetes object (string apiVersion, kind and metadata.name)' },
);

const manifestSchema = z.strictObject({
  id: z.string(),
  stage: z.custom<StageName>((v) => typeof v === 'string' && isStageName(v), { message: 'unknown stage' }),
  object: objectSchema,
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  source: z.string(),
});

const outputSchema: z.ZodType<SynthChildOutput> = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    results: z.array(
      z.strictObject({
        platform: z.string(),
        overlay: z.string(),
        manifests: z.array(manifestSchema),
        hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
        warnings: z.array(issueSchema),
        renders: z.array(renderRequestSchema).optional(),
      }),
    ),
  }),
  z.strictObject({
    ok: z.literal(false),
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      fix: z.string().optional(),
      issues: z.array(issueSchema).optional(),
    }),
  }),
]);

/** A decoded frame, or what is wrong with it (a sentence that quotes none of its bytes). */
type DecodedFrame = { ok: true; output: SynthChildOutput } | { ok: false; problem: string };

/**
 * Reads the child's fd 3: exactly one frame with `nonce`, whose JSON parses as `SynthChildOutput`
 * (zod: types, closed keys, known error codes and stages), and whose manifests are consistent
 * (each id and stage those of its object, each id once). Anything else, a forged frame or bytes
 * before or after the real one included, is a problem: the caller fails synth, never casts.
 */
export function decodeFrame(bytes: Buffer, nonce: string): DecodedFrame {
  const prefix = `${nonce}\n`;
  if (bytes.length < prefix.length || bytes.subarray(0, prefix.length).toString('latin1') !== prefix)
    return { ok: false, problem: 'its result channel holds something other than a frame of this run' };
  let json: unknown;
  try {
    json = JSON.parse(bytes.subarray(prefix.length).toString('utf8'));
  } catch {
    return { ok: false, problem: 'its result is not one JSON document' };
  }
  const parsed = outputSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problem: `its result is malformed: ${summarize(parsed.error.issues.map(describeIssue))}`,
    };
  const output = parsed.data;
  const inconsistent = output.ok ? output.results.flatMap(inconsistencies) : [];
  if (inconsistent.length > 0)
    return { ok: false, problem: `its result is inconsistent: ${summarize(inconsistent)}` };
  return { ok: true, output };
}

/** Manifests whose id or stage is not their object's, and ids that occur twice. */
function inconsistencies(result: SynthResult, r: number): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  result.manifests.forEach((m, i) => {
    const at = `results[${r}].manifests[${i}]`;
    if (m.id !== idOf(m.object)) problems.push(`${at}.id: not the id of its object`);
    if (m.stage !== stageOf(m.object)) problems.push(`${at}.stage: not the stage of its object`);
    if (seen.has(m.id)) problems.push(`${at}.id: occurs twice`);
    seen.add(m.id);
  });
  return problems;
}

/** `results[0].manifests[2].id: <zod's message>`: zod names the expected type, never the value. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
  return `${path || '(root)'}: ${issue.message}`;
}

/** The first five problems, then how many more: a malformed list of thousands reads as one line. */
function summarize(problems: readonly string[]): string {
  const shown = problems.slice(0, 5).join('; ');
  return problems.length > 5 ? `${shown} (+${problems.length - 5} more)` : shown;
}
