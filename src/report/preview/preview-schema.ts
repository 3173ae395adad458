import { z } from 'zod';
import { ERROR_CODES, GroundworkError } from '../../core/errors.js';
import { STAGES } from '../../core/stages.js';
import type { PreviewData } from './preview.js';
import { countBySeverity, RISK_CODES, RISK_SEVERITIES } from './risk-note.js';

/**
 * Bounds of a preview document read from another process (the pull request's job, whose
 * workflow the pull request itself controls): far above what Groundwork writes for a real
 * platform, far below what would hurt the job that reads it.
 */
export const PREVIEW_JSON_LIMITS = {
  bytes: 16 * 1024 * 1024,
  overlays: 256,
  changes: 20_000,
  notes: 10_000,
  issues: 2_000,
  diffChars: 1024 * 1024,
  textChars: 16 * 1024,
  nameChars: 1024,
} as const;

const L = PREVIEW_JSON_LIMITS;
const text = (max: number = L.textChars) => z.string().max(max);
/** A name that reaches markdown: printable, one line (no control characters). */
const line = (max: number = L.nameChars) =>
  z
    .string()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'one line of printable characters');
const kind = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,62}$/, 'a kind: a letter, then letters and digits');
const overlayName = z.string().regex(/^[a-z0-9]([-a-z0-9_./]{0,251}[a-z0-9])?$/, 'an overlay name');
const count = z.number().int().min(0).max(1_000_000);
const dns = '[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?';
const objectId = z
  .string()
  .max(L.nameChars)
  .regex(new RegExp(`^(${dns})?_${dns}_([a-z0-9.-]{0,253})_[A-Za-z][A-Za-z0-9]{0,62}$`), 'an object id');
const stage = z.enum(STAGES.map((s) => s.name) as [string, ...string[]]);

const revision = z.strictObject({
  ref: z.string().regex(/^[A-Za-z0-9._/@^~+-]{1,256}$/, 'a git revision'),
  oid: z
    .string()
    .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)
    .optional(),
});

const issue = z.strictObject({
  path: line(),
  field: line(),
  message: text(),
  fix: text().optional(),
  severity: z.enum(['error', 'warning']),
  overlay: overlayName.optional(),
  from: line().optional(),
  at: line().optional(),
});

const failure = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: text(64 * 1024),
  fix: text().optional(),
  issues: z.array(issue).max(L.issues),
});

const note = z.strictObject({
  severity: z.enum(RISK_SEVERITIES as [string, ...string[]]),
  code: z.enum(RISK_CODES),
  subject: line(),
  message: text(),
  source: line().optional(),
});

const change = z.strictObject({
  action: z.enum(['added', 'changed', 'removed']),
  id: objectId,
  object: line(),
  kind,
  stage,
  source: line(),
  diff: text(L.diffChars),
  nodeDiff: text(L.diffChars).optional(),
});

const overlay = z.strictObject({
  overlay: overlayName,
  status: z.enum(['changed', 'unchanged', 'added', 'removed']),
  summary: z.array(z.strictObject({ kind, added: count, changed: count, removed: count })).max(L.changes),
  changes: z.array(change).max(L.changes),
  risks: z.array(note).max(L.notes),
  warnings: z.array(issue).max(L.issues),
});

const envName = z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'an environment name');

const previewSchema = z.strictObject({
  apiVersion: z.literal('groundwork.io/v1'),
  kind: z.literal('Preview'),
  status: z.enum(['ok', 'head-failed']),
  base: z.strictObject({ revision: revision.optional(), failure: failure.optional() }),
  head: z.strictObject({ revision: revision.optional(), failure: failure.optional() }),
  risks: z.strictObject(
    Object.fromEntries(RISK_SEVERITIES.map((s) => [s, count])) as Record<string, typeof count>,
  ),
  overlays: z.array(overlay).max(L.overlays),
  reach: z
    .strictObject({
      branch: z.string().regex(/^[A-Za-z0-9._/-]{1,256}$/),
      now: z.array(envName).max(100),
      byPromotion: z.array(envName).max(100),
    })
    .optional(),
  otherOverlays: z
    .union([
      z.strictObject({
        changed: z.array(overlayName).max(L.overlays),
        unchanged: z.array(overlayName).max(L.overlays),
      }),
      z.strictObject({ unknown: text() }),
    ])
    .optional(),
});

/**
 * Reads a preview's JSON document (`groundwork preview -o json`) written by another process, as
 * data: size first, then JSON, then a strict schema with bounds (no unknown field, so no markdown
 * rides along; closed vocabularies for codes, kinds, stages and severities; names on one line).
 * Then checks it holds together: `status` says head failed exactly when head has a failure, and the
 * risk counts are recounted from the notes (a document cannot claim fewer than it holds).
 * Throws `InvalidPreview` naming `subject` (the file) and the first field that does not fit, never
 * quoting the document. Returns the preview for `previewMarkdown`, `previewText` and the gate.
 */
export function parsePreviewJson(json: string, subject: string): PreviewData {
  const fail = (message: string) =>
    new GroundworkError({
      code: 'InvalidPreview',
      subject,
      message,
      fix: "render the preview with this repository's own Groundwork (`groundwork preview -o json`), and pass that file",
    });
  if (json.length > L.bytes) throw fail(`larger than ${L.bytes} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    throw fail('not JSON');
  }
  const parsed = previewSchema.safeParse(doc);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw fail(`not a preview document at ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  const p = parsed.data as unknown as PreviewData;
  if ((p.status === 'head-failed') !== (p.head.failure !== undefined))
    throw fail('status and head.failure disagree');
  const recount = countBySeverity(p.overlays.flatMap((o) => o.risks));
  if (RISK_SEVERITIES.some((s) => recount[s] !== p.risks[s]))
    throw fail('its risk counts do not match its risk notes');
  return p;
}
