import { unifiedDiff } from '../report/preview/unified-diff.js';
import type { Proposal, ProposalSet } from './proposal.js';

/** A proposal's edits as one unified diff (`a/<path>`, `b/<path>`), in path order. Pure. */
export function proposalDiff(p: Proposal): string {
  return p.edits
    .map((e) => unifiedDiff(e.before, e.after, { fromName: `a/${e.path}`, toName: `b/${e.path}` }))
    .join('');
}

/**
 * `propose --dry-run`'s text: each proposal (group, environment, title, notes, the diff), then
 * each refusal with its reason, then a count. Pure.
 *
 * @example
 * proposalSetText({ proposals: [], refused: [] }) // 'nothing to propose: every pin is current under the policy\n'
 */
export function proposalSetText(set: ProposalSet): string {
  const out: string[] = [];
  for (const p of set.proposals) {
    out.push(`proposal ${p.group} (environment ${p.environment}): ${p.title}`);
    for (const n of p.notes) out.push(`  note: ${n}`);
    out.push(proposalDiff(p).trimEnd(), '');
  }
  for (const r of set.refused) out.push(`refused ${r.subject}${r.to ? ` → ${r.to}` : ''}: ${r.reason}`);
  if (set.proposals.length === 0 && set.refused.length === 0)
    out.push('nothing to propose: every pin is current under the policy');
  else out.push(`${set.proposals.length} proposal(s), ${set.refused.length} refused`);
  return `${out.join('\n')}\n`;
}

/** The JSON `propose --dry-run -o json` prints: the set, each proposal with its `diff`. Pure. */
export function proposalSetJson(set: ProposalSet): object {
  return {
    proposals: set.proposals.map((p) => ({ ...p, diff: proposalDiff(p) })),
    refused: set.refused,
  };
}
