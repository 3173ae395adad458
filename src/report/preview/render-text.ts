import type { ValidationIssue } from '../../render/synth/validation.js';
import type { PreviewData } from './preview.js';
import {
  failureHeadline,
  overlayCounts,
  reachSentence,
  revisionName,
  severityCounts,
} from './render-parts.js';
import { otherOverlaysSentence } from './other-overlays.js';

/**
 * Terminal text: the revisions and risk roll-up, then per overlay its risk notes (worst first) and
 * each changed object (`+` added, `~` changed, `-` removed) with its diff indented below.
 */
export function previewText(p: PreviewData): string {
  const base = revisionName(p.base.revision, 'base');
  const head = revisionName(p.head.revision, 'head');
  const lines = [`Groundwork preview: base ${base} -> head ${head}`];
  if (p.head.failure) {
    const f = p.head.failure;
    lines.push(
      `HEAD FAILS SYNTH (${failureHeadline(f)}): nothing in ${head} can be applied until it is fixed.`,
    );
    lines.push(...failureLines(f.issues, f.message, f.fix));
    return `${lines.join('\n')}\n`;
  }
  if (p.base.failure) {
    const f = p.base.failure;
    lines.push(
      `base fails synth (${failureHeadline(f)}): comparing against an empty base, every object shows as added.`,
    );
    lines.push(...failureLines(f.issues, f.message, f.fix));
  }
  if (p.reach) lines.push(reachSentence(p.reach));
  lines.push(`risks: ${severityCounts(p.risks)}`);
  if (p.otherOverlays) lines.push(otherOverlaysSentence(p.otherOverlays));
  for (const o of p.overlays) {
    lines.push('', `overlay ${o.overlay}: ${overlayCounts(o)}`);
    if (o.risks.length > 0)
      lines.push(
        '  risks:',
        ...o.risks.map(
          (r) =>
            `    ${r.severity.padEnd(7)} ${r.subject}${r.source ? ` (from ${r.source})` : ''}: ${r.message}`,
        ),
      );
    if (o.warnings.length > 0) lines.push('  warnings:', ...o.warnings.map((w) => `    ${issueLine(w)}`));
    if (o.changes.length > 0) lines.push('  changes:');
    for (const c of o.changes) {
      lines.push(
        `    ${c.action === 'added' ? '+' : c.action === 'removed' ? '-' : '~'} ${c.object} (from ${c.source})`,
      );
      const indent = (diff: string): string[] =>
        diff
          .trimEnd()
          .split('\n')
          .map((l) => `        ${l}`);
      if (c.nodeDiff)
        lines.push('      on the node (files decoded):', ...indent(c.nodeDiff), '      object diff:');
      lines.push(...indent(c.diff));
    }
  }
  return `${lines.join('\n')}\n`;
}

function failureLines(
  issues: readonly ValidationIssue[],
  message: string,
  fix: string | undefined,
): string[] {
  if (issues.length > 0) return issues.map((i) => `  ${issueLine(i)}`);
  const body = message.includes('\n') ? message.split('\n').map((l) => `  ${l}`) : [];
  return [...body, ...(fix ? [`  fix: ${fix}`] : [])];
}

function issueLine(i: ValidationIssue): string {
  const where = `${i.overlay ? `[overlay ${i.overlay}] ` : ''}${i.field ? `${i.path}: ${i.field}` : i.path}`;
  return `${i.severity}: ${where}: ${i.message}${i.from ? ` (value from ${i.from})` : ''}${i.fix ? ` (fix: ${i.fix})` : ''}`;
}
