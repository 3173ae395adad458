import type { ProposalEdit } from './proposal.js';

/** A proposal branch as the remote has it: its head commit against that commit's parent. */
export interface BranchState {
  /** The head was written by Groundwork (`PROPOSAL_AUTHOR`) on one parent; false: a person's commit. */
  readonly byUs: boolean;
  /** Paths the head commit changes against its parent. */
  readonly changed: readonly string[];
  /** Contents at the head, for the changed paths and the proposal's (undefined: no such file). */
  readonly headFiles: ReadonlyMap<string, string | undefined>;
  /** Contents at the head's parent, for the changed paths. */
  readonly parentFiles: ReadonlyMap<string, string | undefined>;
}

/** What to do with one proposal. */
export type ProposalAction =
  /** The base branch has the proposal's contents already: close an open pull request. */
  | { readonly type: 'in-base' }
  /** The base's files are not what the proposal was computed from: nothing is published. */
  | { readonly type: 'stale'; readonly paths: readonly string[] }
  /** The branch's head is a person's commit: never overwritten. */
  | { readonly type: 'edited' }
  /** The branch and the description are this proposal already: nothing is sent. */
  | { readonly type: 'unchanged' }
  /** The branch holds this proposal, the description is older: title and body only, no push. */
  | { readonly type: 'describe' }
  /** The branch holds this proposal and no pull request is open: a person closed it; not reopened. */
  | { readonly type: 'declined' }
  /** New content: one commit on the base, pushed (forced over an older proposal), then opened or updated. */
  | { readonly type: 'push'; readonly pr: 'open' | 'update' };

/**
 * The action for a proposal, from the base's current files, the branch (undefined: none) and
 * whether a pull request is open with the digest its description carries. Pure. A branch is only
 * pushed when its content would change (not when the base merely moved: that pushes nothing and
 * re-runs no CI), and never over a commit that is not Groundwork's.
 */
export function decideProposal(input: {
  readonly edits: readonly ProposalEdit[];
  readonly baseFiles: ReadonlyMap<string, string | undefined>;
  readonly branch: BranchState | undefined;
  readonly pr: { readonly digest: string | undefined } | undefined;
  readonly digest: string;
}): ProposalAction {
  const { edits, baseFiles, branch, pr } = input;
  if (branch && !branch.byUs) return { type: 'edited' };
  if (edits.every((e) => baseFiles.get(e.path) === e.after)) return { type: 'in-base' };
  const stale = edits.filter((e) => baseFiles.get(e.path) !== e.before).map((e) => e.path);
  if (stale.length > 0) return { type: 'stale', paths: stale };
  if (!branch) return { type: 'push', pr: pr ? 'update' : 'open' };
  const paths = new Set(edits.map((e) => e.path));
  const same =
    branch.changed.length === paths.size &&
    branch.changed.every((p) => paths.has(p)) &&
    edits.every((e) => branch.headFiles.get(e.path) === e.after);
  if (!same) return { type: 'push', pr: pr ? 'update' : 'open' };
  if (!pr) return { type: 'declined' };
  return pr.digest === input.digest ? { type: 'unchanged' } : { type: 'describe' };
}

/** What to do with an open pull request whose group nothing proposes this run. */
export type OrphanAction =
  | { readonly type: 'close'; readonly why: 'in-base' | 'moved'; readonly paths: readonly string[] }
  | { readonly type: 'keep'; readonly why: 'edited' | 'not-proposed' };

/**
 * Closes a proposal nothing proposes any more only when the pin moved by other means: the base has
 * the branch's contents (`in-base`: merged by hand, or the same bump made elsewhere), or a file the
 * branch changes changed on the base since the branch was made (`moved`: bumped further, or
 * removed). Otherwise it is kept open: a run that could not read a catalog or a graph proposes
 * nothing for that pin, and that is no reason to close a pull request (as a failed fetch is no
 * reason to prune). A person's commit on the branch keeps it too. Pure.
 */
export function decideOrphan(
  branch: BranchState,
  baseFiles: ReadonlyMap<string, string | undefined>,
): OrphanAction {
  if (!branch.byUs) return { type: 'keep', why: 'edited' };
  if (branch.changed.length > 0 && branch.changed.every((p) => baseFiles.get(p) === branch.headFiles.get(p)))
    return { type: 'close', why: 'in-base', paths: branch.changed };
  const moved = branch.changed.filter((p) => baseFiles.get(p) !== branch.parentFiles.get(p));
  if (moved.length > 0) return { type: 'close', why: 'moved', paths: moved };
  return { type: 'keep', why: 'not-proposed' };
}
