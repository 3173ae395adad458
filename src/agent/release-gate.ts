import { parseRevision } from '../core/revision.js';
import { memberReleaseSchema, type MemberRelease } from '../hub/member-schema.js';

// Which commit an agent started with `--hub` applies (issue 34): the hub only says *when*. Content
// still comes from git; the hub's release (`FleetMember.spec.release`) names a commit of the
// agent's branch, and the agent applies exactly that commit once it has found it on the branch
// (the tip or an ancestor), signed where verification is on. Pure: the fetch, the ancestry walk
// and the signature check are done by the caller (`released-fetch.ts`) and handed in as facts.

/**
 * `--hub-releases`: whether the hub's releases gate the revisions the agent applies.
 * - `auto` (the default with `--hub`): from the first release the hub writes for this member on
 *   (even one the agent refuses; remembered across restarts: `gated`), the agent applies only
 *   released commits; before it, it follows its branch as without `--hub` (a hub used for
 *   reports only, an environment without rollouts).
 * - `required`: gated from the start: nothing is applied before the hub's first release.
 * - `off`: the hub receives reports; its releases are ignored.
 */
export const HUB_RELEASE_POLICIES = ['auto', 'required', 'off'] as const;
export type HubReleasePolicy = (typeof HUB_RELEASE_POLICIES)[number];

export interface ReleaseTargetInput {
  readonly policy: HubReleasePolicy;
  /** The branch the agent follows; undefined for a tag or commit pin, which a release never moves. */
  readonly branch: string | undefined;
  /**
   * `spec.release` of the member's FleetMember as last read, unparsed (the hub is another trust
   * domain: parsed here); undefined when it has none or the hub was not reached since the start.
   */
  readonly hub: unknown;
  /** The last release the agent took up (kept in its hub state Secret), undefined when none. */
  readonly kept: MemberRelease | undefined;
  /**
   * The hub has released to this member before (kept too), even a release that was refused: `auto`
   * stays gated without a release in hand, never falling back to the tip.
   */
  readonly gated?: boolean;
}

/** What to fetch and apply before looking at git. */
export type ReleaseTarget =
  /** Not gated: the branch's tip, as without `--hub`. */
  | { readonly kind: 'tip' }
  /** Gated and nothing released yet: nothing is applied. */
  | { readonly kind: 'none' }
  /** Exactly this commit, once it is found on the branch (`releaseOutcome`). */
  | { readonly kind: 'release'; readonly release: MemberRelease; readonly commit: string }
  /** The hub's release cannot be a commit of this branch: refused, the cluster keeps its revision. */
  | { readonly kind: 'refused'; readonly message: string };

const MAX_PROBLEM = 300;

/**
 * The target of the next fetch. The hub's release, when it has one, wins over the kept one (a
 * release may also move a member back to an older commit of its branch); the kept release holds
 * while the hub cannot be reached or after a restart. A release that does not read (malformed,
 * oversized), names a `+dirty` work tree or another ref than the agent's branch is `refused`, never
 * replaced by the tip.
 */
export function releaseTarget(input: ReleaseTargetInput): ReleaseTarget {
  if (input.policy === 'off' || input.branch === undefined) return { kind: 'tip' };
  const release = input.hub !== undefined ? readRelease(input.hub) : input.kept;
  if (release === undefined)
    return input.policy === 'required' || input.gated ? { kind: 'none' } : { kind: 'tip' };
  if ('problem' in release) return { kind: 'refused', message: release.problem };
  const revision = parseRevision(release.revision);
  if (!revision || revision.dirty)
    return { kind: 'refused', message: `release ${release.revision} is not a commit of a ref` };
  if (revision.ref !== input.branch)
    return {
      kind: 'refused',
      message: `release ${release.revision} is of ref ${revision.ref}; this agent follows branch ${input.branch}`,
    };
  return { kind: 'release', release, commit: revision.commit };
}

/** A release as the hub wrote it, read with the FleetMember schema's bounds, or why it does not read. */
function readRelease(raw: unknown): MemberRelease | { problem: string } {
  const parsed = memberReleaseSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .map((i) => `${i.path.join('.') || '(release)'}: ${i.message}`)
    .join('; ');
  return { problem: `the hub's release does not read: ${issues}`.slice(0, MAX_PROBLEM) };
}

/** What the fetch found about the released commit. */
export interface ReleaseFacts {
  /** The branch's tip as fetched (40 hex). */
  readonly tip: string;
  /** The released commit is the tip or one of its ancestors (false: not on the branch, or no such commit). */
  readonly onRef: boolean;
  /** Its signature check where verification is on (false: refused); undefined where it is off. */
  readonly verified?: boolean;
}

/** The decision once the released commit was looked up. */
export type ReleaseOutcome =
  | {
      /** Apply exactly this commit. */
      readonly apply: string;
      readonly release: MemberRelease;
      /** The branch's tip when it is past the release: waiting for the hub to release it. */
      readonly waiting?: string;
    }
  | { readonly refused: 'NotOnRef' | 'NotVerified'; readonly message: string };

/**
 * Whether the released commit may be applied: only when it is on the branch (the tip or an
 * ancestor; a commit of another branch, or one the remote does not have, is `NotOnRef`) and, where
 * verification is on, its signature verified (`NotVerified`). A tip past the release is `waiting`.
 */
export function releaseOutcome(
  target: Extract<ReleaseTarget, { kind: 'release' }>,
  facts: ReleaseFacts,
  branch: string,
): ReleaseOutcome {
  if (!facts.onRef)
    return {
      refused: 'NotOnRef',
      message: `release ${target.release.revision} (rollout ${target.release.rollout}) is not a commit of branch ${branch}: not applied`,
    };
  if (facts.verified === false)
    return {
      refused: 'NotVerified',
      message: `release ${target.release.revision} is not signed by a trusted key: not applied`,
    };
  return {
    apply: target.commit,
    release: target.release,
    ...(facts.tip !== target.commit ? { waiting: facts.tip } : {}),
  };
}
