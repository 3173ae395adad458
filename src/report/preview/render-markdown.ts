import type { ValidationIssue } from '../../render/synth/validation.js';
import type { ObjectChange, OverlayPreview } from './overlay-preview.js';
import type { PreviewData } from './preview.js';
import {
  failureHeadline,
  overlayCounts,
  plural,
  reachSentence,
  revisionName,
  severityCounts,
} from './render-parts.js';
import { countBySeverity, type RiskNote } from './risk-note.js';
import type { SynthFailure } from './synth-failure.js';
import { otherOverlaysSentence } from './other-overlays.js';
// Every value from a revision (kinds, names, paths, messages, overlay names) enters the comment
// through these: shown as text, never read as Markdown or HTML (an HTML comment opener in a kind
// once hid the rest of the comment).
import {
  htmlText as html,
  mdCell,
  mdCode as code,
  mdCodeCell,
  mdFence as fence,
  mdText as md,
} from '../markdown.js';

/** First line of every preview comment: a workflow finds (and updates) its own comment by it. */
export const PREVIEW_MARKER = '<!-- groundwork-preview -->';

interface MarkdownOptions {
  /**
   * Longest output in characters. GitHub refuses comments over 65,536; past this budget diffs are
   * left out (last ones first), never risk notes or the summary. @default 60_000
   */
  maxLength?: number;
}

/**
 * Markdown for the pull-request comment: the marker, the revisions, the risk roll-up, then per
 * overlay its risk notes (worst first), a count per kind and each object's diff folded in
 * `<details>`. A head that fails synth gets only its failure, with every issue and fix.
 */
export function previewMarkdown(p: PreviewData, opts: MarkdownOptions = {}): string {
  const maxLength = opts.maxLength ?? 60_000;
  const base = revisionName(p.base.revision, 'base', code);
  const head = revisionName(p.head.revision, 'head', code);
  if (p.head.failure) return headFailed(p.head.failure, head);
  const top = [PREVIEW_MARKER, '## Groundwork preview', '', `Base ${base} → head ${head}.`, ''];
  if (p.base.failure) top.push(...baseFailed(p.base.failure, base));
  if (p.reach) top.push(reachSentence(p.reach, md), '');
  top.push(`**Risks:** ${severityCounts(p.risks)}.`, '');
  if (p.otherOverlays) top.push(otherOverlaysSentence(p.otherOverlays, code, md), '');
  if (p.overlays.length > 1) top.push(...overlayTable(p.overlays), '');
  if (p.overlays.length === 0) top.push('No overlays.', '');
  return fitBudget(top.join('\n'), p.overlays.map(overlaySection), maxLength);
}

const TRAILER = (n: number, what: string): string =>
  `_${plural(n, what)} left out to stay under GitHub's comment size limit: run \`groundwork preview\` locally for all of them._\n`;
/** Room kept for the trailer line. */
const RESERVE = 200;

/**
 * Everything but diffs is always shown; diffs fill what is left of the budget, in order. When even
 * one line per changed object does not fit, the lists go (the per-kind tables stay); past that,
 * the text is cut, so the comment can always be posted.
 */
function fitBudget(top: string, sections: readonly Section[], maxLength: number): string {
  const withLists = [top, ...sections.map((s) => s.text + s.changes.map((c) => c.short).join(''))].join('\n');
  const changes = sections.reduce((n, s) => n + s.changes.length, 0);
  if (withLists.length + RESERVE > maxLength) {
    const bare = [
      top,
      ...sections.map((s) => s.text),
      changes > 0 ? TRAILER(changes, 'changed object') : '',
    ].join('\n');
    return bare.length <= maxLength
      ? bare
      : `${bare.slice(0, maxLength - RESERVE)}\n\n_… cut to stay under GitHub's comment size limit: run \`groundwork preview\` locally._\n`;
  }
  let room = maxLength - RESERVE - withLists.length;
  let omitted = 0;
  const out = [top];
  for (const s of sections) {
    let text = s.text;
    for (const c of s.changes) {
      const extra = c.full.length - c.short.length;
      if (extra <= room) {
        text += c.full;
        room -= extra;
      } else {
        text += c.short;
        omitted++;
      }
    }
    out.push(text);
  }
  if (omitted > 0) out.push(TRAILER(omitted, 'diff'));
  return out.join('\n');
}

function headFailed(f: SynthFailure, head: string): string {
  const lines = [PREVIEW_MARKER, '## Groundwork preview: head does not synthesize', ''];
  lines.push(
    '> [!CAUTION]',
    `> Head ${head} fails synth (${md(failureHeadline(f))}). Nothing in this revision can be applied until it is fixed.`,
    '',
  );
  lines.push(...failureBody(f));
  return `${lines.join('\n')}\n`;
}

function baseFailed(f: SynthFailure, base: string): string[] {
  const notice = [
    '> [!WARNING]',
    `> Base ${base} fails synth (${md(failureHeadline(f))}), so this preview compares head against an empty base: every object shows as added.`,
    '',
  ];
  const body = failureBody(f);
  return body.length
    ? [...notice, '<details><summary>Why base fails</summary>', '', ...body, '</details>', '']
    : notice;
}

function failureBody(f: SynthFailure): string[] {
  if (f.issues.length > 0) return [...f.issues.map(issueItem), ''];
  // A one-line message is already in the headline.
  const lines = f.message.includes('\n') ? [fence(f.message, 'text'), ''] : [];
  if (f.fix) lines.push(`Fix: ${md(f.fix)}`, '');
  return lines;
}

function issueItem(i: ValidationIssue): string {
  const overlay = i.overlay ? `overlay ${code(i.overlay)}: ` : '';
  const where = `${overlay}${i.field ? `${code(i.path)} ${code(i.field)}` : code(i.path)}`;
  const from = i.from ? `\n  - value from ${code(i.from)}` : '';
  return `- **${i.severity}** ${where}: ${md(i.message)}${from}${i.fix ? `\n  - fix: ${md(i.fix)}` : ''}`;
}

function overlayTable(overlays: readonly OverlayPreview[]): string[] {
  const n = (o: OverlayPreview, a: ObjectChange['action']): number =>
    o.changes.filter((c) => c.action === a).length;
  return [
    '| Overlay | Added | Changed | Removed | Risks |',
    '| --- | ---: | ---: | ---: | --- |',
    ...overlays.map(
      (o) =>
        `| ${mdCodeCell(o.overlay)}${o.status === 'added' ? ' (new)' : o.status === 'removed' ? ' (removed)' : ''} | ${n(o, 'added')} | ${n(o, 'changed')} | ${n(o, 'removed')} | ${severityCounts(countBySeverity(o.risks))} |`,
    ),
  ];
}

interface Section {
  text: string;
  changes: { short: string; full: string }[];
}

function overlaySection(o: OverlayPreview): Section {
  const lines = [`### Overlay ${code(o.overlay)}: ${overlayCounts(o)}`, ''];
  if (o.risks.length > 0) lines.push('**Risks**', '', ...o.risks.map(riskItem), '');
  if (o.summary.length > 0) {
    lines.push('| Kind | Added | Changed | Removed |', '| --- | ---: | ---: | ---: |');
    lines.push(
      ...o.summary.map((s) => `| ${mdCell(s.kind)} | ${s.added} | ${s.changed} | ${s.removed} |`),
      '',
    );
  }
  if (o.warnings.length > 0) lines.push('**Synth warnings**', '', ...o.warnings.map(issueItem), '');
  const changes = o.changes.map((c) => {
    const title = `<b>${c.action}</b> <code>${html(c.object)}</code> from <code>${html(c.source)}</code>`;
    return {
      short: `- ${c.action} ${code(c.object)} from ${code(c.source)} (diff left out)\n`,
      full: c.nodeDiff
        ? `<details><summary>${title}</summary>\n\nOn the node (files decoded):\n\n${fence(c.nodeDiff, 'diff')}\n\n<details><summary>Object diff</summary>\n\n${fence(c.diff, 'diff')}\n\n</details>\n\n</details>\n\n`
        : `<details><summary>${title}</summary>\n\n${fence(c.diff, 'diff')}\n\n</details>\n\n`,
    };
  });
  return { text: `${lines.join('\n')}\n`, changes };
}

function riskItem(r: RiskNote): string {
  const from = r.source ? ` (from ${code(r.source)})` : '';
  return `- **${r.severity}** ${code(r.subject)}${from}: ${md(r.message)}`;
}
