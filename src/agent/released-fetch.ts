import { GroundworkError, hasCode } from '../core/errors.js';
import { revisionString } from '../core/revision.js';
import type { MemberRelease } from '../hub/member-schema.js';
import type { FetchedRevision } from '../source/fetch-revision.js';
import { releaseOutcome, releaseTarget, type HubReleasePolicy } from './release-gate.js';

/** What the agent keeps about the hub's releases (`KeptReleaseStore`). */
export interface KeptRelease {
  /** The last release it took up. */
  readonly release?: MemberRelease;
  /** The hub has released to this member before (even a release that was refused). */
  readonly gated: boolean;
}

/** Where the agent keeps its releases (the hub credentials Secret, on its own cluster). */
export interface KeptReleaseStore {
  readKept(): Promise<KeptRelease>;
  /** Keeps `release` as the one taken up (and the member as gated). */
  writeRelease(release: MemberRelease): Promise<void>;
  /** Keeps the member as gated: the hub has released to it. */
  markGated(): Promise<void>;
}

/** What the hub link is told after each fetch: the release applied, and the tip waiting for one. */
export interface ReleaseHold {
  /** The release the fetched checkout is (undefined: not gated). */
  readonly release?: MemberRelease;
  /** The branch's tip (`<branch>@sha1:<hex>`) when the hub has not released it to this cluster. */
  readonly waiting?: string;
  /** The release the agent refused (its revision as the hub wrote it, when it is a string). */
  readonly refused?: string;
}

export interface ReleasedFetchOptions {
  readonly policy: HubReleasePolicy;
  /** The branch the agent follows; undefined for a tag or commit pin (never gated). */
  readonly branch: string | undefined;
  /**
   * Fetches the agent's ref (`pin` undefined) or exactly `pin`, found on the branch (the tip or an
   * ancestor; else `RevisionNotFound`); `verify: false` skips the signature check (a tip only
   * fetched to be named as waiting is never applied).
   */
  readonly fetch: (pin: string | undefined, opts: { verify: boolean }) => Promise<FetchedRevision>;
  /** The FleetMember's `spec.release` as last read, unparsed; undefined before the hub was reached. */
  readonly hubRelease: () => unknown;
  readonly kept: KeptReleaseStore;
  /** Called after each fetch that got as far as the branch. */
  readonly onHold: (hold: ReleaseHold) => void;
}

/**
 * The agent's fetch under the hub's releases (`release-gate.ts` decides): the branch's tip when not
 * gated; else exactly the released commit, fetched as a pin on the branch so that only a commit of
 * the branch (the tip or an ancestor) is ever checked out, and verified like any fetched commit
 * where verification is on. A release taken up is kept (`kept`) before its checkout is returned,
 * so a restarted agent, or one whose hub is unreachable, holds it and applies nothing newer.
 *
 * Throws `ReleaseRefused` (the release cannot be a commit of the branch: the cluster keeps its
 * revision), `ReleasePending` (`required`, nothing released yet), or what the fetch throws
 * (`VerificationFailed` for an unsigned released commit, `FetchFailed`, ...).
 */
export class ReleasedFetch {
  constructor(private readonly opts: ReleasedFetchOptions) {}

  async fetch(): Promise<FetchedRevision> {
    const { policy, branch } = this.opts;
    const gated = policy !== 'off' && branch !== undefined;
    // Read at each fetch (another replica may have led meanwhile); a failed read fails the cycle,
    // never ungates it.
    const kept: KeptRelease = gated ? await this.opts.kept.readKept() : { gated: false };
    const hub = this.opts.hubRelease();
    // Once the hub has released to this member, `auto` stays gated, even through a refused release.
    if (gated && hub !== undefined && !kept.gated) await this.opts.kept.markGated();
    const target = releaseTarget({
      policy,
      branch,
      hub,
      kept: kept.release,
      gated: kept.gated || hub !== undefined,
    });
    if (target.kind === 'tip') {
      const r = await this.opts.fetch(undefined, { verify: true });
      this.opts.onHold({});
      return r;
    }
    if (target.kind === 'refused') {
      const revision = (hub as { revision?: unknown } | undefined)?.revision;
      this.opts.onHold(typeof revision === 'string' ? { refused: revision.slice(0, 300) } : {});
      throw refused(branch!, target.message);
    }
    if (target.kind === 'none') {
      const r = await this.opts.fetch(undefined, { verify: false });
      this.opts.onHold({ waiting: r.revision });
      throw new GroundworkError({
        code: 'ReleasePending',
        subject: r.revision,
        message: `nothing released to this cluster yet: ${r.revision} waits for the hub`,
        fix: 'release a revision to this member from the hub (groundwork fleet rollout)',
      });
    }
    let r: FetchedRevision;
    try {
      r = await this.opts.fetch(target.commit, { verify: true });
    } catch (err) {
      if (!hasCode(err, 'RevisionNotFound')) throw err;
      this.opts.onHold({ refused: target.release.revision });
      const outcome = releaseOutcome(target, { tip: '', onRef: false }, branch!);
      throw refused(branch!, 'message' in outcome ? outcome.message : String(err), err);
    }
    const outcome = releaseOutcome(target, { tip: r.tip, onRef: r.commit === target.commit }, branch!);
    if ('refused' in outcome) throw refused(branch!, outcome.message);
    if (!sameRelease(kept.release, outcome.release)) await this.opts.kept.writeRelease(outcome.release);
    this.opts.onHold({
      release: outcome.release,
      ...(outcome.waiting ? { waiting: revisionString({ ref: branch!, commit: outcome.waiting }) } : {}),
    });
    return r;
  }
}

function refused(branch: string, message: string, cause?: unknown): GroundworkError {
  return new GroundworkError({
    code: 'ReleaseRefused',
    subject: `branch ${branch}`,
    message,
    fix: "release a commit of the environment's branch; the cluster stays at its last released revision",
    ...(cause ? { cause } : {}),
  });
}

function sameRelease(a: MemberRelease | undefined, b: MemberRelease): boolean {
  return (
    a !== undefined &&
    a.revision === b.revision &&
    a.rollout === b.rollout &&
    a.wave === b.wave &&
    a.releasedAt === b.releasedAt
  );
}
