import * as fs from 'node:fs';
import { rm } from 'node:fs/promises';
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import { GroundworkError } from '../core/errors.js';
import { redact } from './credentials.js';
import { fetchError } from './fetch-error.js';
import { fetchRemoteBranch } from './fetch-branch.js';
import { GIT_TIMEOUT_MS, withGitDeadline } from './git-deadline.js';
import type { Remote } from './remote.js';
import { openScratchRepo, type ScratchRepoOptions } from './scratch-repo.js';
import { NotAGitRepositoryError } from './revision-errors.js';

/** What `groundwork propose` reads of the local checkout: its local config and HEAD, not its content. */
export interface CheckoutFacts {
  /** The directory holding `.git`. */
  readonly root: string;
  /** The branch checked out; undefined on a detached HEAD. */
  readonly branch: string | undefined;
  /** The `origin` remote's URL; undefined when there is none. */
  readonly origin: string | undefined;
}

/** The checkout holding `dir`: `NotAGitRepository` when there is none. */
export async function checkoutFacts(dir: string): Promise<CheckoutFacts> {
  let root: string;
  try {
    root = await git.findRoot({ fs, filepath: dir });
  } catch (err) {
    throw new NotAGitRepositoryError(dir, err);
  }
  const origin: unknown = await git
    .getConfig({ fs, dir: root, path: 'remote.origin.url' })
    .catch(() => undefined);
  const branch = await git.currentBranch({ fs, dir: root, fullname: false }).catch(() => undefined);
  return {
    root,
    branch: typeof branch === 'string' ? branch : undefined,
    origin: typeof origin === 'string' && origin !== '' ? origin : undefined,
  };
}

/** Who writes proposal commits: a head commit by anyone else is a person's, and never overwritten. */
export const PROPOSAL_AUTHOR = { name: 'groundwork propose', email: 'propose@groundwork.invalid' } as const;

/** What a commit says about itself (read from the remote's objects: data, not instructions). */
export interface CommitFacts {
  readonly parents: readonly string[];
  readonly authorEmail: string;
}

/** The most paths a tree comparison lists before it stops (a proposal touches a handful). */
const MAX_CHANGED_PATHS = 1000;

/**
 * Why `path` may not name a file of a proposal commit, or undefined: it must be repository-relative
 * with forward slashes, no empty, `.` or `..` segment, no `.git` segment, no backslash and no
 * control character. The one check of a path before it reaches a git tree. Pure.
 */
export function treePathProblem(path: string): string | undefined {
  if (path === '' || path.length > 4096) return 'is empty or longer than 4096 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'holds a control character or a backslash';
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    return 'is not relative or has an empty, . or .. segment';
  if (segments.some((s) => s.toLowerCase() === '.git')) return 'names a .git directory';
  return undefined;
}

/**
 * A temporary repository for the branches `groundwork propose` writes: fetch a branch, read files
 * of a commit, write one commit on a parent with whole-file contents, push it (forced only when
 * asked), delete a branch. Over HTTP the credentials go as an Authorization header, never in the
 * URL or a file; over SSH a deploy key that may push (`openRemote` with `push`). The caller's
 * checkout is never touched; `dispose()` removes the directory. Every ref listing, fetch and push is
 * bounded by `timeoutMs` (`withGitDeadline`): a server that stalls fails it with `FetchTimeout`.
 *
 * @example
 * const repo = await ProposalRepo.open({ url, auth });
 * const base = await repo.fetchBranch('main');
 * const oid = await repo.commitFiles({ parent: base!, files: [{ path, content }], message });
 * await repo.push('groundwork/propose/podinfo', oid, { force: true });
 */
export class ProposalRepo {
  private constructor(
    readonly dir: string,
    private readonly remote: Remote,
    private readonly timeoutMs: number | undefined,
  ) {}

  static async open(opts: ScratchRepoOptions): Promise<ProposalRepo> {
    const { dir, remote } = await openScratchRepo('groundwork-propose-', opts);
    return new ProposalRepo(dir, remote, opts.timeoutMs);
  }

  /** Runs git requests bounded by the timeout (`withGitDeadline`). */
  private bounded<T>(op: (http: HttpClient) => Promise<T>): Promise<T> {
    return withGitDeadline({ http: this.remote.http, url: this.remote.url, timeoutMs: this.timeoutMs }, op);
  }

  /** A fresh object per call: isomorphic-git writes into the headers it is given. */
  private get headers(): Record<string, string> {
    return { ...this.remote.headers };
  }

  /** The remote's branches under `prefix` (e.g. `groundwork/propose/`), with their heads. */
  async listBranches(prefix: string): Promise<{ branch: string; oid: string }[]> {
    const refs = await this.bounded((http) =>
      git.listServerRefs({
        http,
        url: this.remote.fetchUrl,
        prefix: `refs/heads/${prefix}`,
        headers: this.headers,
      }),
    ).catch((err: unknown) => {
      throw this.failed(err, `refs/heads/${prefix}`);
    });
    return refs.map((r) => ({ branch: r.ref.slice('refs/heads/'.length), oid: r.oid }));
  }

  /** Fetches a branch (its history) and returns its head, or undefined when it does not exist. */
  fetchBranch(branch: string): Promise<string | undefined> {
    return this.bounded((http) =>
      fetchRemoteBranch(
        {
          dir: this.dir,
          http,
          url: this.remote.fetchUrl,
          headers: () => this.headers,
          failed: (err, ref) => this.failed(err, ref),
        },
        branch,
      ),
    );
  }

  /** Each path's content at `commit` (UTF-8), undefined where the file does not exist. */
  async readFiles(commit: string, paths: readonly string[]): Promise<Map<string, string | undefined>> {
    const out = new Map<string, string | undefined>();
    for (const filepath of paths) {
      const blob = await git.readBlob({ fs, dir: this.dir, oid: commit, filepath }).catch(() => undefined);
      out.set(filepath, blob && Buffer.from(blob.blob).toString('utf8'));
    }
    return out;
  }

  /** The parents and author of a fetched commit. */
  async commitFacts(commit: string): Promise<CommitFacts> {
    const { commit: c } = await git.readCommit({ fs, dir: this.dir, oid: commit });
    return { parents: c.parent, authorEmail: c.author.email };
  }

  /** The paths of files that differ between two fetched commits (added, removed or changed), at most 1000. */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const changed: string[] = [];
    await git.walk({
      fs,
      dir: this.dir,
      trees: [git.TREE({ ref: from }), git.TREE({ ref: to })],
      map: async (path, [a, b]) => {
        if (path === '.' || changed.length >= MAX_CHANGED_PATHS) return path === '.' ? true : undefined;
        const [ta, tb] = [await a?.type(), await b?.type()];
        if (ta === 'tree' || tb === 'tree') {
          if ((await a?.oid()) === (await b?.oid())) return undefined; // same subtree: skip it
          if (ta === 'tree' && tb === 'tree') return true;
        }
        if ((await a?.oid()) !== (await b?.oid()) && ta !== 'tree' && tb !== 'tree') changed.push(path);
        return ta === 'tree' || tb === 'tree' ? true : undefined;
      },
    });
    return changed.sort();
  }

  /**
   * Writes one commit on `parent` whose tree is the parent's with each file's content replaced
   * (created where missing), by `PROPOSAL_AUTHOR`, and returns its id; nothing is pushed. Every
   * path is checked first (`treePathProblem`): a bad one throws `PathOutsideCheckout` and nothing
   * is written.
   */
  async commitFiles(opts: {
    parent: string;
    files: readonly { path: string; content: string }[];
    message: string;
    /** @default now */
    date?: Date;
  }): Promise<string> {
    for (const f of opts.files) {
      const problem = treePathProblem(f.path);
      if (problem)
        throw new GroundworkError({
          code: 'PathOutsideCheckout',
          subject: `file ${JSON.stringify(f.path.slice(0, 200))}`,
          message: `a proposal may not write this path: it ${problem}`,
          fix: 'a proposal edits files inside the repository by their repository-relative path',
        });
    }
    let tree = (await git.readCommit({ fs, dir: this.dir, oid: opts.parent })).commit.tree;
    for (const f of opts.files) {
      const blob = await git.writeBlob({ fs, dir: this.dir, blob: Buffer.from(f.content, 'utf8') });
      tree = await this.replaceInTree(tree, f.path.split('/'), blob);
    }
    const timestamp = Math.floor((opts.date ?? new Date()).getTime() / 1000);
    const who = { ...PROPOSAL_AUTHOR, timestamp, timezoneOffset: 0 };
    return git.writeCommit({
      fs,
      dir: this.dir,
      commit: { tree, parent: [opts.parent], author: who, committer: who, message: opts.message },
    });
  }

  /** The tree `tree` with the file at `segments` set to `blob` (subtrees made where missing). */
  private async replaceInTree(tree: string | undefined, segments: string[], blob: string): Promise<string> {
    const entries = tree ? (await git.readTree({ fs, dir: this.dir, oid: tree })).tree : [];
    const [name, ...rest] = segments as [string, ...string[]];
    const existing = entries.find((e) => e.path === name);
    const entry =
      rest.length === 0
        ? {
            mode: existing?.type === 'blob' ? existing.mode : '100644',
            path: name,
            oid: blob,
            type: 'blob' as const,
          }
        : {
            mode: '040000',
            path: name,
            oid: await this.replaceInTree(existing?.type === 'tree' ? existing.oid : undefined, rest, blob),
            type: 'tree' as const,
          };
    return git.writeTree({ fs, dir: this.dir, tree: [...entries.filter((e) => e.path !== name), entry] });
  }

  /**
   * Points `branch` of the remote at `commit`. Without `force` the server refuses anything but a
   * fast-forward (`NotFastForward`); with it the branch is replaced (proposal branches only).
   */
  async push(branch: string, commit: string, opts: { force: boolean }): Promise<void> {
    const remoteRef = `refs/heads/${branch}`;
    await git.writeRef({ fs, dir: this.dir, ref: remoteRef, value: commit, force: true });
    await this.pushRef(remoteRef, { force: opts.force, delete: false });
  }

  /** Deletes `branch` on the remote (nothing when it is gone already). */
  async deleteBranch(branch: string): Promise<void> {
    const head = (await this.listBranches(branch)).find((b) => b.branch === branch);
    if (!head) return;
    // isomorphic-git's push expands `ref` locally even to delete it.
    await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${branch}`, value: head.oid, force: true });
    await this.pushRef(`refs/heads/${branch}`, { force: false, delete: true });
  }

  private async pushRef(remoteRef: string, opts: { force: boolean; delete: boolean }): Promise<void> {
    try {
      const pushed = await this.bounded((http) =>
        git.push({
          fs,
          http,
          dir: this.dir,
          url: this.remote.fetchUrl,
          ref: remoteRef,
          remoteRef,
          force: opts.force,
          delete: opts.delete,
          headers: this.headers,
        }),
      );
      if (!pushed.ok)
        throw Object.assign(new Error(pushed.error ?? 'push failed'), { code: 'PushRejectedError' });
    } catch (err) {
      if ((err as { code?: string }).code === 'PushRejectedError')
        throw new GroundworkError({
          code: 'NotFastForward',
          subject: remoteRef,
          message: `the server refused the push: ${redact((err as Error).message, this.remote.auth)}`,
          fix: 'someone pushed meanwhile: run groundwork propose again',
        });
      throw this.failed(err, remoteRef);
    }
  }

  /** A git or HTTP failure as a Groundwork error, scrubbed of credentials. */
  private failed(err: unknown, remoteRef: string): GroundworkError {
    return fetchError(err, {
      url: this.remote.url,
      auth: this.remote.auth,
      remoteRef,
      timedOut: false,
      timeoutMs: this.timeoutMs ?? GIT_TIMEOUT_MS,
    });
  }

  async dispose(): Promise<void> {
    this.remote.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
