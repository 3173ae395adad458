/**
 * The result of `groundwork propose`: one proposal per update group, and the refusals, as plain
 * data. The engine (src/propose/engine) builds a {@link ProposalSet}; `--dry-run` prints it and the
 * forge side (src/propose/publish*.ts) turns each proposal into one branch and pull request.
 *
 * Every string here may carry text that came from outside (a catalog, a graph, a chart index):
 * the engine bounds and checks versions and paths before they get here, and sinks (markdown, a
 * branch name, a file path) still go through their own builders.
 */

/** What kind of pin a proposal moves. */
export type ProposalKind = 'operator' | 'cluster-version' | 'chart';

/** The kinds in the order proposals are listed. */
export const PROPOSAL_KINDS: readonly ProposalKind[] = ['operator', 'cluster-version', 'chart'];

/** One whole-file edit: the file's content before and after, with a repository-relative path. */
export interface ProposalEdit {
  /** Repository-relative, forward slashes, no `..` segment, no leading `/`. */
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

/** One update group's proposal: what to change, why, and what it reaches. */
export interface Proposal {
  /** DNS-label-safe id (a-z, 0-9, '-', at most 63), used in the branch name groundwork/propose/<group>. */
  readonly group: string;
  readonly kind: ProposalKind;
  /** One line, e.g. "cert-manager 1.14.4 → 1.14.5 (stable-v1)". */
  readonly title: string;
  /** The pinned version and the proposed one. */
  readonly from: string;
  readonly to: string;
  /** Whole-file contents, repository-relative paths, in path order. */
  readonly edits: readonly ProposalEdit[];
  /** Risks named, not accepted (conditional update risks, skipped versions), one line each. */
  readonly notes: readonly string[];
  /** The first environment of the promotion chain the proposal targets. */
  readonly environment: string;
}

/** A newer version that was found but not proposed, and why. */
export interface Refusal {
  /** What the pin is, e.g. "operator cert-manager" or "chart podinfo". */
  readonly subject: string;
  readonly kind: ProposalKind;
  /** The version that was refused ('' when no candidate could be read at all). */
  readonly to: string;
  /** One line: why it is not proposed (no OLM path, not an edge, catalog unreadable, ...). */
  readonly reason: string;
}

/** Everything one `propose` run decided. */
export interface ProposalSet {
  readonly proposals: readonly Proposal[];
  readonly refused: readonly Refusal[];
}
