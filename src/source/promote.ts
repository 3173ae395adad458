import * as fs from 'node:fs';
import { rm } from 'node:fs/promises';
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import { GroundworkError } from '../core/errors.js';
import { redact, type GitAuth } from './credentials.js';
import { fetchError } from './fetch-error.js';
import { fetchRemoteBranch } from './fetch-branch.js';
import { GIT_TIMEOUT_MS, withGitDeadline } from './git-deadline.js';
import type { Remote } from './remote.js';
import { openScratchRepo, type ScratchRepoOptions } from './scratch-repo.js';
import type { TrustedKeys } from './trust/trusted-keys.js';
import { verifyFetched } from './trust/verify-fetched.js';
import type { SignatureVerdict } from './trust/verify-signature.js';

/** How a branch of the remote stands against a commit that is to be promoted onto it. */
interface BranchState {
  /** The branch's head; undefined when the branch does not exist yet. */
  readonly head: string | undefined;
  /** True when moving the branch to the commit is a fast-forward (or the branch does not exist). */
  readonly fastForward: boolean;
  /** Commits the promotion adds to the branch (0 when the branch is already there). */
  readonly ahead: number;
}

/**
 * A temporary repository for promoting a commit from one branch of a remote to another, with
 * isomorphic-git over HTTP (credentials as an Authorization header, never in the URL or a file)
 * or SSH (a deploy key that may push; `openRemote` with `push`). The caller's checkout is never
 * touched. `dispose()` removes it and ends an SSH connection. Every fetch and push is bounded by
 * `timeoutMs` (`withGitDeadline`): a server that stalls fails it with `FetchTimeout`, and the next
 * call can run.
 *
 * @example
 * const repo = await PromotionRepo.open({ url, auth });
 * const source = await repo.fetchBranch('main');
 * const state = await repo.stateOf(commit, await repo.fetchBranch('env/prod'));
 * if (state.fastForward) await repo.push('env/prod', commit, { name: 'promote/prod/1', message });
 * await repo.dispose();
 */
export class PromotionRepo {
  private constructor(
    readonly dir: string,
    private readonly remote: Remote,
    private readonly timeoutMs: number | undefined,
  ) {}

  static async open(opts: ScratchRepoOptions): Promise<PromotionRepo> {
    const { dir, remote } = await openScratchRepo('groundwork-promote-', opts);
    return new PromotionRepo(dir, remote, opts.timeoutMs);
  }

  /** Runs git requests bounded by the timeout (`withGitDeadline`). */
  private bounded<T>(op: (http: HttpClient) => Promise<T>): Promise<T> {
    return withGitDeadline({ http: this.remote.http, url: this.remote.url, timeoutMs: this.timeoutMs }, op);
  }

  private get url(): string {
    return this.remote.fetchUrl;
  }

  private get auth(): GitAuth | undefined {
    return this.remote.auth;
  }

  /** A fresh object per call: isomorphic-git writes into the headers it is given (Git-Protocol, content-type). */
  private get headers(): Record<string, string> {
    return { ...this.remote.headers };
  }

  /** Fetches a branch (its whole history) and returns its head, or undefined when it does not exist. */
  fetchBranch(branch: string): Promise<string | undefined> {
    return this.bounded((http) =>
      fetchRemoteBranch(
        {
          dir: this.dir,
          http,
          url: this.url,
          headers: () => this.headers,
          failed: (err, ref) => this.failed(err, ref),
        },
        branch,
      ),
    );
  }

  /** Whether `commit` is `head` or one of its ancestors (both fetched). */
  async contains(head: string, commit: string): Promise<boolean> {
    if (head === commit) return true;
    return git.isDescendent({ fs, dir: this.dir, oid: head, ancestor: commit, depth: -1 }).catch(() => false);
  }

  /** How a branch at `head` (undefined: no such branch) stands against moving it to `commit`. */
  async stateOf(commit: string, head: string | undefined): Promise<BranchState> {
    if (!head)
      return { head, fastForward: true, ahead: (await git.log({ fs, dir: this.dir, ref: commit })).length };
    if (head === commit) return { head, fastForward: true, ahead: 0 };
    if (!(await this.contains(commit, head))) return { head, fastForward: false, ahead: 0 };
    const log = await git.log({ fs, dir: this.dir, ref: commit });
    const at = log.findIndex((c) => c.oid === head);
    return { head, fastForward: true, ahead: at >= 0 ? at : log.length };
  }

  /**
   * Moves `branch` of the remote to `commit` (the server refuses anything but a fast-forward) and
   * pushes an annotated tag on it. `NotFastForward` when the server refused.
   */
  async push(branch: string, commit: string, tag?: { name: string; message: string }): Promise<void> {
    await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${branch}`, value: commit, force: true });
    const remoteRef = `refs/heads/${branch}`;
    try {
      await this.bounded(async (http) => {
        const pushed = await git.push({
          fs,
          http,
          dir: this.dir,
          url: this.url,
          ref: branch,
          remoteRef,
          headers: this.headers,
        });
        if (!pushed.ok)
          throw Object.assign(new Error(pushed.error ?? 'push failed'), { code: 'PushRejectedError' });
      });
      if (tag) {
        await git.annotatedTag({
          fs,
          dir: this.dir,
          ref: tag.name,
          object: commit,
          message: tag.message,
          tagger: { name: 'groundwork promote', email: 'groundwork@localhost' },
        });
        await this.bounded((http) =>
          git.push({
            fs,
            http,
            dir: this.dir,
            url: this.url,
            ref: `refs/tags/${tag.name}`,
            remoteRef: `refs/tags/${tag.name}`,
            headers: this.headers,
          }),
        );
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'PushRejectedError')
        throw new GroundworkError({
          code: 'NotFastForward',
          subject: `branch ${branch}`,
          message: `the server refused the push: ${redact((err as Error).message, this.auth)}`,
          fix: 'someone pushed meanwhile: run groundwork promote again',
        });
      throw this.failed(err, remoteRef);
    }
  }

  /** A git or HTTP failure as a Groundwork error, scrubbed of credentials (a timeout is one already). */
  private failed(err: unknown, remoteRef: string): GroundworkError {
    return fetchError(err, {
      url: this.remote.url,
      auth: this.auth,
      remoteRef,
      timedOut: false,
      timeoutMs: this.timeoutMs ?? GIT_TIMEOUT_MS,
    });
  }

  /** The signature check of a fetched commit (see `verifyFetched`), at the current time. */
  async verify(commit: string, keys: TrustedKeys | undefined): Promise<SignatureVerdict> {
    return (await verifyFetched({ repoDir: this.dir, oid: commit, keys, now: new Date() })).verdict;
  }

  async dispose(): Promise<void> {
    this.remote.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Commits between `commit` and the head of `branch` on the remote (how far a cluster that runs
 * `commit` is behind its environment's ref), by branch. Undefined for a branch that does not exist
 * or a commit that is not on it.
 */
export async function commitsBehind(opts: {
  readonly url: string;
  readonly auth?: GitAuth;
  readonly wanted: readonly { readonly branch: string; readonly commit: string }[];
  readonly http?: HttpClient;
  /** The most one fetch may take (a temporary repository's; a given `repo` keeps its own). @default GIT_TIMEOUT_MS (120 s) */
  readonly timeoutMs?: number;
  /** A repository to fetch into and keep (the dashboard's, read again and again); @default a temporary one, removed after */
  readonly repo?: PromotionRepo;
}): Promise<Map<string, number>> {
  const repo = opts.repo ?? (await PromotionRepo.open(opts));
  const out = new Map<string, number>();
  try {
    for (const branch of new Set(opts.wanted.map((w) => w.branch))) {
      const head = await repo.fetchBranch(branch);
      if (!head) continue;
      const log = await git.log({ fs, dir: repo.dir, ref: head, depth: 1000 });
      for (const w of opts.wanted.filter((x) => x.branch === branch)) {
        const i = log.findIndex((c) => c.oid === w.commit);
        if (i >= 0) out.set(`${branch}@${w.commit}`, i);
      }
    }
    return out;
  } finally {
    if (!opts.repo) await repo.dispose();
  }
}
