import type { OverlayPreview } from './overlay-preview.js';
import type { PreviewRevision } from './preview.js';
import { RISK_SEVERITIES, type RiskSeverity } from './risk-note.js';
import type { SynthFailure } from './synth-failure.js';

/** Shared wording of the Markdown and text renderings. */

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `main (1a2b3c4)`; just the short id when the ref is the id; the fallback when unknown. */
export function revisionName(
  revision: PreviewRevision | undefined,
  fallback: string,
  code: (s: string) => string = (s) => s,
): string {
  if (!revision) return fallback;
  const { ref, oid } = revision;
  if (!oid) return code(ref);
  if (oid.startsWith(ref.toLowerCase())) return code(oid.slice(0, 7));
  return `${code(ref)} (${code(oid.slice(0, 7))})`;
}

/** `1 blocker, 2 high` (only the severities present), or `none`. */
export function severityCounts(counts: Record<RiskSeverity, number>): string {
  const parts = RISK_SEVERITIES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** `2 added, 3 changed, 1 removed`, `no changes`, `overlay removed`. */
export function overlayCounts(o: OverlayPreview): string {
  if (o.status === 'removed') return 'overlay removed';
  const n = (a: 'added' | 'changed' | 'removed'): number => o.changes.filter((c) => c.action === a).length;
  const parts = (['added', 'changed', 'removed'] as const).filter((a) => n(a) > 0).map((a) => `${n(a)} ${a}`);
  const text = parts.length ? parts.join(', ') : 'no changes';
  return o.status === 'added' ? `new overlay, ${text}` : text;
}

/** `ValidationFailed: 2 validation errors` */
export function failureHeadline(f: SynthFailure): string {
  return f.issues.length > 0 || !f.message.includes('\n') ? `${f.code}: ${firstLine(f.message)}` : f.code;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/**
 * `Reaches dev now (merged into main); staging, prod only by promotion.` Environment and branch
 * names (from groundwork.yaml) pass through `text` (Markdown: `mdText`).
 */
export function reachSentence(
  r: { branch: string; now: readonly string[]; byPromotion: readonly string[] },
  text: (s: string) => string = (s) => s,
): string {
  const now = r.now.length
    ? `${r.now.map(text).join(', ')} as soon as it is merged into ${text(r.branch)}`
    : `no environment directly (none follows ${text(r.branch)})`;
  return `Reaches ${now}${r.byPromotion.length ? `; ${r.byPromotion.map(text).join(', ')} only by promotion (groundwork promote)` : ''}.`;
}
