import { join } from 'node:path';
import { errorMessage, GroundworkError } from '../core/errors.js';
import type { PreviewData } from '../report/preview/index.js';
import type { GitAuth } from '../source/credentials.js';
import { PROPOSAL_AUTHOR, ProposalRepo, treePathProblem } from '../source/proposal-branch.js';
import { groupOfBranch, PROPOSAL_BRANCH_PREFIX, proposalBranch } from './forge/branch-name.js';
import type { PullRequestForge } from './forge/pull-request-forge.js';
import type { Proposal, ProposalSet } from './proposal.js';
import { closingComment, digestOfBody, proposalBody, proposalDigest, proposalTitle } from './publish-body.js';
import { decideOrphan, decideProposal, type BranchState } from './publish-decision.js';

/** What happened to one proposal group on the forge. */
export interface PublishOutcome {
  readonly group: string;
  readonly branch: string;
  readonly outcome:
    | 'opened'
    | 'updated'
    | 'described'
    | 'unchanged'
    | 'closed'
    | 'kept'
    | 'stale'
    | 'edited'
    | 'declined'
    | 'in-base'
    | 'failed';
  /** The pull request's page, when there is one. */
  readonly url?: string;
  /** One line: why (a stale path, a closing reason, an error without the token). */
  readonly detail?: string;
}

/**
 * Renders the synth preview of `head` against `base` in the repository at `repoDir` (a temporary
 * clone holding both commits): the `preview` command's own path, with its isolated renderer
 * (`previewRevisions`). Injected by the CLI, which owns that path.
 */
export type RenderPreview = (rev: {
  repoDir: string;
  /** `origin/<base branch>` in that clone: the preview names the branch and where a merge reaches. */
  base: string;
  /** The proposal's commit. */
  head: string;
}) => Promise<PreviewData>;

export interface PublishOptions {
  readonly forge: PullRequestForge;
  /** The repository's clone URL and the credentials that may push (the forge token). */
  readonly git: { readonly url: string; readonly auth: GitAuth };
  /** The first environment's branch: proposals are made on it and target it. */
  readonly baseRef: string;
  readonly preview: RenderPreview;
  /** The platform root inside the repository (where groundwork.yaml is), '' for the root. @default '' */
  readonly platformDir?: string;
  /** @default now */
  readonly now?: Date;
}

/**
 * Publishes a `ProposalSet` on the forge, one branch `groundwork/propose/<group>` and one pull
 * request per proposal, made on and targeting `baseRef`:
 * - a new proposal: one commit by `PROPOSAL_AUTHOR` on the base's head with the edits, pushed,
 *   and a pull request whose description is the synth preview (`proposalBody`);
 * - a newer version for a group with an open pull request: the branch replaced by one new commit
 *   (forced), title and description updated in place; the same content: nothing pushed (a moved
 *   base alone re-runs no CI), the description updated only when it says something else;
 * - the base already has the change, or an open proposal's files moved on the base while nothing
 *   proposes it now: closed with a comment saying why, and its branch deleted;
 * - a branch whose head is a person's commit is never overwritten or closed; a branch with this
 *   content whose pull request was closed by a person is not reopened.
 * Never merges. A proposal that fails is reported (`failed`, the token never in the detail) and
 * the others go on. The preview is rendered before anything is pushed.
 */
export async function publishProposals(set: ProposalSet, opts: PublishOptions): Promise<PublishOutcome[]> {
  const repo = await ProposalRepo.open(opts.git);
  try {
    const base = await repo.fetchBranch(opts.baseRef);
    if (!base)
      throw new GroundworkError({
        code: 'RevisionNotFound',
        subject: `branch ${opts.baseRef}`,
        message: 'the base branch of the proposals does not exist on the remote',
        fix: "push it, or give the target environment's ref in groundwork.yaml",
      });
    const out: PublishOutcome[] = [];
    const groups = new Set<string>();
    for (const proposal of set.proposals) {
      let branch = PROPOSAL_BRANCH_PREFIX;
      try {
        branch = proposalBranch(proposal.group);
        groups.add(proposal.group);
        out.push(await publishOne(repo, base, branch, proposal, opts));
      } catch (err) {
        out.push({ group: proposal.group, branch, outcome: 'failed', detail: errorMessage(err) });
      }
    }
    for (const { branch } of await repo.listBranches(PROPOSAL_BRANCH_PREFIX)) {
      const group = groupOfBranch(branch);
      if (!group || groups.has(group)) continue;
      try {
        const outcome = await settleOrphan(repo, base, branch, group, opts);
        if (outcome) out.push(outcome);
      } catch (err) {
        out.push({ group, branch, outcome: 'failed', detail: errorMessage(err) });
      }
    }
    return out;
  } finally {
    await repo.dispose();
  }
}

async function publishOne(
  repo: ProposalRepo,
  base: string,
  branch: string,
  proposal: Proposal,
  opts: PublishOptions,
): Promise<PublishOutcome> {
  const prefix = opts.platformDir ?? '';
  const edits = proposal.edits.map((e) => ({
    ...e,
    path: prefix ? `${prefix}/${checkedPath(e.path)}` : checkedPath(e.path),
  }));
  const paths = edits.map((e) => e.path);
  const baseFiles = await repo.readFiles(base, paths);
  const head = await repo.fetchBranch(branch);
  const state = head ? await branchState(repo, head, paths) : undefined;
  const pr = await opts.forge.find(branch);
  if (pr && pr.base !== opts.baseRef)
    return {
      group: proposal.group,
      branch,
      outcome: 'failed',
      url: pr.url,
      detail: `its open pull request merges into ${pr.base}, not ${opts.baseRef}: left alone (close it to propose into ${opts.baseRef})`,
    };
  const digest = proposalDigest(proposal);
  const action = decideProposal({
    edits,
    baseFiles,
    branch: state,
    pr: pr && { digest: digestOfBody(pr.body) },
    digest,
  });
  const done = (outcome: PublishOutcome['outcome'], detail?: string): PublishOutcome => ({
    group: proposal.group,
    branch,
    outcome,
    ...(pr ? { url: pr.url } : {}),
    ...(detail ? { detail } : {}),
  });
  switch (action.type) {
    case 'edited':
      return done('edited', "the branch has a commit that is not Groundwork's: left alone");
    case 'unchanged':
      return done('unchanged');
    case 'declined':
      return done(
        'declined',
        `its pull request was closed unmerged: not reopened (delete ${branch} to have it proposed again)`,
      );
    case 'stale':
      return done(
        'stale',
        `${action.paths.join(', ')} changed on ${opts.baseRef} since the proposal was computed: run propose again`,
      );
    case 'in-base':
      if (!pr) return done('in-base');
      await opts.forge.close(pr.number, closingComment('in-base', opts.baseRef, paths));
      if (head) await repo.deleteBranch(branch);
      return done('closed', `${opts.baseRef} already has ${proposal.to}`);
  }
  const commit = await repo.commitFiles({
    parent: base,
    files: edits.map((e) => ({ path: e.path, content: e.after })),
    message: `${proposalTitle(proposal)}\n\nProposed by groundwork propose for environment ${proposal.environment}.\n`,
    ...(opts.now ? { date: opts.now } : {}),
  });
  const preview = await opts.preview({
    repoDir: prefix ? join(repo.dir, prefix) : repo.dir,
    base: `origin/${opts.baseRef}`,
    head: commit,
  });
  const change = { title: proposalTitle(proposal), body: proposalBody(proposal, preview) };
  if (action.type === 'describe') {
    await opts.forge.update(pr!.number, change);
    return done('described');
  }
  await repo.push(branch, commit, { force: head !== undefined });
  if (pr) {
    await opts.forge.update(pr.number, change);
    return done('updated', `${proposal.from} → ${proposal.to}`);
  }
  // A retried create whose first attempt got through is refused as a duplicate: the one that exists is it.
  const opened = await opts.forge
    .open({ branch, base: opts.baseRef, ...change })
    .catch(async (err: unknown) => (await opts.forge.find(branch)) ?? Promise.reject(err));
  return {
    group: proposal.group,
    branch,
    outcome: 'opened',
    url: opened.url,
    detail: `${proposal.from} → ${proposal.to}`,
  };
}

/** `path` when a proposal may write it (`treePathProblem`), else `PathOutsideCheckout` before anything is read or pushed. */
function checkedPath(path: string): string {
  const problem = treePathProblem(path);
  if (problem)
    throw new GroundworkError({
      code: 'PathOutsideCheckout',
      subject: `file ${JSON.stringify(path.slice(0, 200))}`,
      message: `a proposal may not write this path: it ${problem}`,
      fix: 'a proposal edits files inside the repository by their repository-relative path',
    });
  return path;
}

/** An open proposal nothing proposes this run: closed when its pin moved by other means, else kept. */
async function settleOrphan(
  repo: ProposalRepo,
  base: string,
  branch: string,
  group: string,
  opts: PublishOptions,
): Promise<PublishOutcome | undefined> {
  const pr = await opts.forge.find(branch);
  // No open pull request: a person closed it (the branch is theirs to delete). One into another
  // branch: a proposal for another environment, compared with another base.
  if (!pr || pr.base !== opts.baseRef) return undefined;
  const head = await repo.fetchBranch(branch);
  if (!head) return undefined;
  const state = await branchState(repo, head, []);
  const action = decideOrphan(state, await repo.readFiles(base, state.changed));
  if (action.type === 'keep')
    return {
      group,
      branch,
      outcome: 'kept',
      url: pr.url,
      detail:
        action.why === 'edited'
          ? "the branch has a commit that is not Groundwork's"
          : 'not proposed this run (see the refusals) and its files did not move: left open',
    };
  await opts.forge.close(pr.number, closingComment(action.why, opts.baseRef, action.paths));
  await repo.deleteBranch(branch);
  return {
    group,
    branch,
    outcome: 'closed',
    url: pr.url,
    detail:
      action.why === 'in-base'
        ? `${opts.baseRef} already has it`
        : `the pin moved by other means (${action.paths.join(', ')})`,
  };
}

/** The branch at `head` against its parent: who wrote it, what it changes, the contents of those paths and `paths`. */
async function branchState(repo: ProposalRepo, head: string, paths: readonly string[]): Promise<BranchState> {
  const facts = await repo.commitFacts(head);
  const parent = facts.parents[0];
  const byUs = facts.authorEmail === PROPOSAL_AUTHOR.email && facts.parents.length === 1;
  const changed = parent ? await repo.changedPaths(parent, head) : [];
  const all = [...new Set([...changed, ...paths])];
  return {
    byUs,
    changed,
    headFiles: await repo.readFiles(head, all),
    parentFiles: parent ? await repo.readFiles(parent, changed) : new Map(),
  };
}
