import { GroundworkError } from '../../core/errors.js';

/** Every proposal branch starts so; nothing else under it is Groundwork's. */
export const PROPOSAL_BRANCH_PREFIX = 'groundwork/propose/';

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The branch of a proposal group, `groundwork/propose/<group>`: the one builder of a proposal's
 * branch name (and so of the URLs and refs it reaches). `group` must be a DNS label (lower-case
 * letters, digits and `-`, at most 63, starting and ending with a letter or digit): no `/`, `..`,
 * space, newline or ref syntax (`~^:?*[\`) can get through. Throws `InvalidProposalGroup`, the
 * group quoted escaped and cut.
 *
 * @example
 * proposalBranch('cert-manager') // 'groundwork/propose/cert-manager'
 */
export function proposalBranch(group: string): string {
  if (!DNS_LABEL.test(group))
    throw new GroundworkError({
      code: 'InvalidProposalGroup',
      subject: `group ${JSON.stringify(group.slice(0, 80))}`,
      message: 'is not a DNS label, so it cannot name a branch',
      fix: 'name the group with lower-case letters, digits and -, at most 63 characters',
    });
  return `${PROPOSAL_BRANCH_PREFIX}${group}`;
}

/** The group a branch name is the proposal branch of, or undefined for any other branch. Pure. */
export function groupOfBranch(branch: string): string | undefined {
  if (!branch.startsWith(PROPOSAL_BRANCH_PREFIX)) return undefined;
  const group = branch.slice(PROPOSAL_BRANCH_PREFIX.length);
  return DNS_LABEL.test(group) ? group : undefined;
}
