import { z } from 'zod';
import { ERROR_CODES, GroundworkError, type ErrorCode } from '../../core/errors.js';
import { idOf } from '../../core/object-id.js';
import { k8sObjectIdentitySchema } from '../../core/object-identity.js';
import { isPlainObject, type K8sObject } from '../../core/object.js';
import { isStageName, stageOf, type StageName } from '../../core/stages.js';
import { renderRequestSchema } from '../recorded/render-request.js';
import type { SynthResult } from '../synth/synthesize.js';
import { SynthValidationError, type ValidationIssue } from '../synth/validation.js';
import { frameBounds, jsonShape } from './json-shape.js';
import { quickManifests, withoutManifests } from './quick-manifests.js';

/**
 * What the platform child and the renderer send back: results, or the error with every validation
 * issue. It travels as one frame on the process's fd 3 (`encodeFrame`), never on stdout: platform
 * code that prints (`console.log`) writes to stdout, which the parent reads as log output.
 */
export type SynthChildOutput =
  | { ok: true; results: SynthResult[] }
  | {
      ok: false;
      error: { code: ErrorCode; subject?: string; message: string; fix?: string; issues?: ValidationIssue[] };
    };

/** The fd that carries the frame (a pipe of its own, after stdin, stdout and stderr). */
export const RESULT_FD = 3;

/**
 * A frame: the nonce the parent gave this process (on its stdin, read before platform code loads),
 * a newline, and the output as JSON. Platform code that writes to fd 3 itself does not know the
 * nonce, so its bytes never pass for a result.
 */
export function encodeFrame(nonce: string, output: SynthChildOutput, stringify = JSON.stringify): string {
  return `${nonce}\n${stringify(output)}`;
}

/** `encodeFrame` of an output that is JSON already (a platform child's, forwarded as it came). */
export function encodeJsonFrame(nonce: string, json: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${nonce}\n`), json]);
}

/** An error as the output of a frame: validation issues, a Groundwork code, else `BuildFailed` with the stack. */
export function failureOutput(err: unknown): SynthChildOutput {
  if (err instanceof SynthValidationError)
    return { ok: false, error: { code: err.code, message: err.message, issues: [...err.issues] } };
  if (err instanceof GroundworkError)
    return {
      ok: false,
      error: {
        code: err.code,
        ...(err.subject ? { subject: err.subject } : {}),
        // The message without the `<subject>: ` the error's own message starts with.
        message:
          err.subject && err.message.startsWith(`${err.subject}: `)
            ? err.message.slice(err.subject.length + 2)
            : err.message,
        ...(err.fix ? { fix: err.fix } : {}),
      },
    };
  // An ArrayBuffer the data limit (`prlimit --data`) refused: the platform's memory, not its code.
  if (err instanceof RangeError && /allocation failed/i.test(err.message))
    return {
      ok: false,
      error: {
        code: 'SynthOutOfMemory',
        message: `platform code went over its memory limit: ${err.message}`,
        fix: 'look for unbounded data in the platform code (large Buffers and strings count too)',
      },
    };
  return {
    ok: false,
    error: { code: 'BuildFailed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) },
  };
}

/** Bounds of the strings of a frame besides objects: messages quote at most this much. */
const TEXT_MAX = 64 * 1024;
/** The most results (overlays), and issues or warnings per result, a frame may hold. */
const RESULTS_MAX = 1024;
const ISSUES_MAX = 10_000;

const text = z.string().max(TEXT_MAX);

const issueSchema = z.strictObject({
  path: text,
  field: text,
  message: text,
  fix: text.optional(),
  severity: z.enum(['error', 'warning']),
  overlay: text.optional(),
  from: text.optional(),
  at: text.optional(),
});

/**
 * Checked, not copied: the object keeps every field, `__proto__` keys included. Its identity
 * (apiVersion, kind, name, namespace) must pass the apiserver's rules (`k8sObjectIdentitySchema`),
 * so no `..`, `/` or upper case reaches a request path or a file name.
 */
const objectSchema = z
  .custom<K8sObject>((v) => isPlainObject(v) && isPlainObject(v.metadata), {
    message: 'expected a Kubernetes object (apiVersion, kind and metadata)',
  })
  .superRefine((v, ctx) => {
    const parsed = k8sObjectIdentitySchema.safeParse(v);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
  });

const chartSchema = z.strictObject({
  path: text,
  chart: text,
  repo: text.optional(),
  version: text.optional(),
  valuesHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});

/** One manifest of a result (exported for the tests that hold `quickManifest` to it). */
export const manifestSchema = z.strictObject({
  id: z.string(),
  stage: z.custom<StageName>((v) => typeof v === 'string' && isStageName(v), { message: 'unknown stage' }),
  object: objectSchema,
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  source: text,
});

const outputSchema: z.ZodType<SynthChildOutput> = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    results: z
      .array(
        z.strictObject({
          platform: text,
          overlay: text,
          manifests: z.array(manifestSchema),
          hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
          warnings: z.array(issueSchema).max(ISSUES_MAX),
          renders: z.array(renderRequestSchema).max(ISSUES_MAX).optional(),
          charts: z.array(chartSchema).max(ISSUES_MAX).optional(),
        }),
      )
      .max(RESULTS_MAX),
  }),
  z.strictObject({
    ok: z.literal(false),
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      subject: text.optional(),
      message: text,
      fix: text.optional(),
      issues: z.array(issueSchema).max(ISSUES_MAX).optional(),
    }),
  }),
]);

/** What the reader of a frame knows it must hold, besides its schema. */
export interface FrameExpectations {
  /** The overlays asked for, each to be answered once, and no other. @default any */
  readonly overlays?: readonly string[];
  /** The platform's name in groundwork.yaml, as the reader read it. @default any */
  readonly platform?: string;
  /** The frame's byte cap, which sets how many values it may hold (`frameBounds`). @default 64 MiB */
  readonly capBytes?: number;
}

/** A decoded frame, or what is wrong with it (a sentence that quotes none of its bytes). */
type DecodedFrame = { ok: true; output: SynthChildOutput } | { ok: false; problem: string };

/**
 * Reads a frame from fd 3: exactly one frame with `nonce`, whose JSON is first counted against
 * `frameBounds` (values, objects and arrays, depth: a frame of millions of tiny values is refused
 * before it is parsed), then parses as `SynthChildOutput` (zod: types, closed keys, bounded strings
 * and counts, known error codes and stages, each object's identity by the apiserver's rules), and
 * whose manifests are consistent (each id and stage those of its object, each id once) and match
 * `expect` (the overlays asked for, once each; the platform's name). Anything else, a forged frame
 * or bytes before or after the real one included, is a problem: the caller fails synth, never casts.
 */
export function decodeFrame(bytes: Buffer, nonce: string, expect: FrameExpectations = {}): DecodedFrame {
  const prefix = `${nonce}\n`;
  if (bytes.length < prefix.length || bytes.subarray(0, prefix.length).toString('latin1') !== prefix)
    return { ok: false, problem: 'its result channel holds something other than a frame of this run' };
  const shape = jsonShape(bytes, prefix.length, frameBounds(expect.capBytes ?? DEFAULT_CAP_BYTES));
  if (!shape.ok)
    return {
      ok: false,
      problem: `its result holds more than ${shape.limit} ${SHAPE_WORDS[shape.exceeded]}: refused before parsing`,
    };
  let json: unknown;
  try {
    json = JSON.parse(bytes.subarray(prefix.length).toString('utf8'));
  } catch {
    return { ok: false, problem: 'its result is not one JSON document' };
  }
  const parsed = parseOutput(json);
  if (!parsed.success)
    return {
      ok: false,
      problem: `its result is malformed: ${summarize(parsed.error.issues.map(describeIssue))}`,
    };
  const output = parsed.data;
  const inconsistent = output.ok
    ? [...output.results.flatMap(inconsistencies), ...unexpected(output.results, expect)]
    : [];
  if (inconsistent.length > 0)
    return { ok: false, problem: `its result is inconsistent: ${summarize(inconsistent)}` };
  return { ok: true, output };
}

const DEFAULT_CAP_BYTES = 64 * 1024 * 1024;

/**
 * `outputSchema.safeParse(json)`, with the manifests checked by `quickManifests` when each is
 * plainly valid and zod checking the rest. Whenever either finds anything, zod parses the whole
 * answer again: its verdict and its messages are the answer's.
 */
function parseOutput(json: unknown): ReturnType<typeof outputSchema.safeParse> {
  const manifests = quickManifests(json, TEXT_MAX);
  if (!manifests) return outputSchema.safeParse(json);
  const rest = outputSchema.safeParse(withoutManifests(json));
  if (!rest.success || !rest.data.ok) return outputSchema.safeParse(json);
  rest.data.results.forEach((r, i) => (r.manifests = manifests[i]!));
  return rest;
}

const SHAPE_WORDS = {
  maxValues: 'values',
  maxContainers: 'objects and arrays',
  maxDepth: 'levels of nesting',
};

/** Results for overlays not asked for (or twice, or missing), or of another platform. */
function unexpected(results: readonly SynthResult[], expect: FrameExpectations): string[] {
  const problems: string[] = [];
  if (expect.platform !== undefined)
    results.forEach((r, i) => {
      if (r.platform !== expect.platform)
        problems.push(`results[${i}].platform: not the platform of groundwork.yaml`);
    });
  if (expect.overlays === undefined) return problems;
  const asked = new Set(expect.overlays);
  const seen = new Set<string>();
  results.forEach((r, i) => {
    if (!asked.has(r.overlay)) problems.push(`results[${i}].overlay: not an overlay that was asked for`);
    else if (seen.has(r.overlay)) problems.push(`results[${i}].overlay: answered twice`);
    seen.add(r.overlay);
  });
  const missing = expect.overlays.filter((o) => !seen.has(o));
  if (missing.length > 0) problems.push(`no result for ${missing.length} overlay(s) asked for`);
  return problems;
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
