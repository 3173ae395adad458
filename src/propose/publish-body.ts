import { createHash } from 'node:crypto';
import { mdCode, mdText } from '../report/markdown.js';
import { previewMarkdown, type PreviewData } from '../report/preview/index.js';
import { proposalBranch } from './forge/branch-name.js';
import type { Proposal } from './proposal.js';

/** The largest description sent (GitHub refuses bodies over 65,536 characters). */
const MAX_BODY = 60_000;
/** The longest title sent. */
const MAX_TITLE = 200;

const MARKER = /^<!-- groundwork-propose group=([a-z0-9-]{1,63}) digest=([0-9a-f]{64}) -->/;

/**
 * The digest of what a proposal's description says (title, versions, environment, notes and each
 * edited file's new content): equal digests, equal descriptions, so an unchanged proposal sends
 * nothing. Pure.
 */
export function proposalDigest(p: Proposal): string {
  const what = {
    group: p.group,
    title: p.title,
    from: p.from,
    to: p.to,
    environment: p.environment,
    notes: p.notes,
    edits: p.edits.map((e) => [e.path, e.after]),
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** The digest a description Groundwork wrote carries on its first line, or undefined. Pure. */
export function digestOfBody(body: string): string | undefined {
  return MARKER.exec(body)?.[2];
}

/** The pull request's title: one line, control characters out, at most 200 characters. Pure. */
export function proposalTitle(p: Proposal): string {
  const line = oneLine(p.title);
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
}

/**
 * The pull request's description: a marker line (the group and `proposalDigest`, both checked
 * shapes), what moves where, the proposal's notes, that Groundwork never merges, then the synth
 * preview of the change through the preview's own builder (`previewMarkdown`, cut to fit). Every
 * value from the proposal goes through `mdText`/`mdCode`: a note or a version cannot open HTML,
 * a link or a table. Pure.
 */
export function proposalBody(p: Proposal, preview: PreviewData): string {
  proposalBranch(p.group); // InvalidProposalGroup: the group is written into the marker line
  const head = [
    `<!-- groundwork-propose group=${p.group} digest=${proposalDigest(p)} -->`,
    `Groundwork proposes ${mdText(p.kind)} ${mdCode(p.from)} → ${mdCode(p.to)} for environment ${mdCode(p.environment)}, the first of its promotion chain.`,
    '',
  ];
  if (p.notes.length > 0) {
    head.push('**Notes** (named, not accepted on your behalf):', '');
    for (const note of p.notes) head.push(`- ${mdText(oneLine(note))}`);
    head.push('');
  }
  head.push(
    '_Groundwork never merges this pull request. It updates it when a newer version appears and closes it when the pin moves by other means; a commit of yours on the branch is never overwritten._',
    '',
  );
  const top = head.join('\n');
  return `${top}\n${previewMarkdown(preview, { maxLength: Math.max(2_000, MAX_BODY - top.length) })}`;
}

/** `text` on one line: runs of control characters (newlines included) as one space. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** Why a pull request is closed, as its closing comment. Pure. */
export function closingComment(why: 'in-base' | 'moved', base: string, paths: readonly string[]): string {
  const files = paths.slice(0, 20).map(mdCode).join(', ');
  return why === 'in-base'
    ? `Closed by Groundwork: ${mdCode(base)} already has this change (${files}), so there is nothing left to propose.`
    : `Closed by Groundwork: the pin moved by other means on ${mdCode(base)} (${files} changed since this proposal), so it no longer applies. A newer version, if any, gets a pull request of its own.`;
}
