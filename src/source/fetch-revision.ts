import * as fs from 'node:fs';
import { join, resolve } from 'node:path';
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import { checkoutCommit } from './checkouts.js';
import type { GitAuth } from './credentials.js';
import { fetchError } from './fetch-error.js';
import { openRemote } from './remote.js';
import type { SshLimits } from './ssh/ssh-http.js';
import { resolveRevision } from './resolve-revision.js';
import type { TrustedKeys } from './trust/trusted-keys.js';
import { requireVerified, verifyFetched, type VerifiedObject } from './trust/verify-fetched.js';
import { FetchTimeoutError, RemoteRevisionNotFoundError } from './source-errors.js';
import { GIT_TIMEOUT_MS, withGitDeadline } from './git-deadline.js';
import { revisionString } from '../core/revision.js';

/** What to follow: a branch's head, a tag, or one commit (searched on `branch`, or on the remote's HEAD). */
export type SourceRef =
  | { readonly branch: string }
  | { readonly tag: string }
  | { readonly commit: string; readonly branch?: string };

export interface FetchRevisionOptions {
  /**
   * `http://` or `https://` clone URL (userinfo in it is used as credentials when `auth` is not
   * given), or `ssh://[user@]host[:port]/path` or scp-like `[user@]host:path` (with `auth.ssh`).
   */
  readonly url: string;
  readonly ref: SourceRef;
  /** A directory this function owns: the object store (`repo/.git`) and `checkouts/<commit>`. Reuse it between calls. */
  readonly cacheDir: string;
  /** The directory holding groundwork.yaml, relative to the repository root. @default '.' */
  readonly path?: string;
  readonly auth?: GitAuth;
  /** Abort the network part after this long. @default 120000 */
  readonly timeoutMs?: number;
  /** How many checkouts to keep in `cacheDir/checkouts`. @default 3 */
  readonly keepCheckouts?: number;
  /** The HTTP client isomorphic-git talks through (HTTP URLs). @default isomorphic-git/http/node */
  readonly http?: HttpClient;
  /** Bounds of an SSH fetch (connect timeout, answer sizes). @default SSH_LIMITS */
  readonly ssh?: Partial<SshLimits>;
  /**
   * Check the fetched commit's (or followed annotated tag's) signature against `keys` before
   * anything is checked out. `required`: a signature that does not verify is `VerificationFailed`
   * and nothing is written to `checkouts`; otherwise the verdict is only returned. @default no check
   */
  readonly trust?: {
    readonly keys: TrustedKeys | undefined;
    readonly required: boolean;
    readonly now?: Date;
  };
}

export interface FetchedRevision {
  /** Frozen format: `<branch>@sha1:<hex>`, `<tag>@sha1:<hex>`, or `HEAD@sha1:<hex>` for a commit pin without a branch. */
  readonly revision: string;
  /** The full commit id checked out (an annotated tag peeled). */
  readonly commit: string;
  /**
   * The commit the fetched ref points to: `commit` itself, except for a pinned commit older than
   * its branch's head (then the head, newer than what was checked out).
   */
  readonly tip: string;
  /** The checkout's directory at `path`; it holds a package.json. Read-only by convention. */
  readonly dir: string;
  /** The remote ref that was fetched: `refs/heads/main`, `refs/tags/v1` or `HEAD`. */
  readonly ref: string;
  /** The signature check, when `trust` was given. */
  readonly signature?: VerifiedObject;
  /** The commit's message and author name (text from the repository: escape it wherever it is shown). */
  readonly commitInfo: { readonly message: string; readonly author: string };
}

/** Deepening steps for a pinned commit older than the branch head; the last one fetches all history. */
const DEPTHS = [1, 16, 256, 2147483647];
/** isomorphic-git has no gc: past this many packs the store is dropped and cloned afresh. */
const MAX_PACKS = 64;
/** The ref our last fetch left its head in, sent as a `have` so the next fetch only brings new objects. */
const LAST_FETCHED = 'refs/groundwork/last-fetched';
const locks = new Map<string, Promise<unknown>>();

/**
 * Brings one revision of a remote git repository into `cacheDir` and checks it out.
 *
 * Fetches over smart HTTP(S) with isomorphic-git, or over SSH through the same client (see
 * `ssh/ssh-http.ts`: a deploy key, host keys pinned by known_hosts), shallow (depth 1) and single-branch: the first
 * call clones, later calls fetch only what is new. A pinned commit older than the branch head is
 * found by deepening the branch step by step (16, 256, then all of it); a commit not on the
 * branch is `RevisionNotFound`. The commit is written to `cacheDir/checkouts/<commit>` through
 * a temporary directory and a rename, so a checkout is never half-written; the last
 * `keepCheckouts` stay. A checkout without `package.json` at `path` gets `{"type":"module"}`.
 *
 * Calls on one `cacheDir` run one at a time (within this process). Credentials go out as a
 * Basic `Authorization` header (see `credentials.ts`) or as SSH public-key authentication, and
 * appear in no error, no cause and no file in `cacheDir`.
 *
 * Throws `UnsupportedRepoUrl`, `FetchFailed` (network, HTTP status: see `statusCode`), `AuthFailed`
 * (401/403, a refused deploy key), `HostKeyNotPinned`/`HostKeyMismatch` (SSH), `InvalidCredentials`,
 * `FetchTimeout`, `RevisionNotFound` (branch, tag or commit), `PathNotFound`, or, with
 * `trust.required`, `VerificationFailed` (see `trust/verify-fetched.ts`) before any checkout.
 *
 * @example
 * const { revision, dir } = await fetchRevision({
 *   url: 'https://github.com/acme/platform.git', ref: { branch: 'main' }, cacheDir: '/var/cache/groundwork',
 *   path: 'clusters/prod', auth: credentialsFromEnv(process.env),
 * });
 * // revision: 'main@sha1:3f1c…', dir: '/var/cache/groundwork/checkouts/3f1c…/clusters/prod'
 */
export async function fetchRevision(opts: FetchRevisionOptions): Promise<FetchedRevision> {
  const key = resolve(opts.cacheDir);
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => fetchUnlocked(opts));
  const tail = run.catch(() => {});
  locks.set(key, tail);
  void tail.then(() => locks.get(key) === tail && locks.delete(key));
  return run;
}

async function fetchUnlocked(opts: FetchRevisionOptions): Promise<FetchedRevision> {
  const remote = openRemote(opts.url, opts.auth, {
    ...(opts.http ? { http: opts.http } : {}),
    ...(opts.ssh ? { ssh: opts.ssh } : {}),
  });
  const { url, auth } = remote;
  const repoDir = join(resolve(opts.cacheDir), 'repo');
  const { remoteRef, name, pin } = target(opts.ref);
  const timeoutMs = opts.timeoutMs ?? GIT_TIMEOUT_MS;
  let head: string;
  try {
    head = await withGitDeadline({ http: remote.http, url, timeoutMs }, (http) =>
      fetchHead({ repoDir, url, fetchUrl: remote.fetchUrl, headers: remote.headers, http, remoteRef, pin }),
    );
  } catch (err) {
    throw fetchError(err, { url, auth, remoteRef, timedOut: err instanceof FetchTimeoutError, timeoutMs });
  } finally {
    remote.close();
  }
  const commit = await resolveRevision({ fs, dir: repoDir, ref: head });
  const tip = pin === undefined ? commit : await resolveRevision({ fs, dir: repoDir, ref: LAST_FETCHED });
  const revision = revisionString({ ref: name, commit });
  // Before the checkout: an object that is required to verify and does not is never written out.
  const signature = opts.trust
    ? await (opts.trust.required ? requireVerified : verifyFetched)({
        repoDir,
        oid: head,
        keys: opts.trust.keys,
        now: opts.trust.now ?? new Date(),
        name,
        revision,
      })
    : undefined;
  const dir = await checkoutCommit({
    repoDir,
    checkoutsDir: join(resolve(opts.cacheDir), 'checkouts'),
    commit,
    path: opts.path ?? '.',
    revision,
    keep: opts.keepCheckouts ?? 3,
  });
  const { commit: details } = await git.readCommit({ fs, dir: repoDir, oid: commit });
  const commitInfo = { message: details.message, author: details.author.name };
  return { revision, commit, tip, dir, ref: remoteRef, commitInfo, ...(signature ? { signature } : {}) };
}

function target(ref: SourceRef): { remoteRef: string; name: string; pin?: string } {
  if ('tag' in ref)
    return { remoteRef: `refs/tags/${strip(ref.tag, 'refs/tags/')}`, name: strip(ref.tag, 'refs/tags/') };
  const branch = ref.branch === undefined ? undefined : strip(ref.branch, 'refs/heads/');
  const remoteRef = branch === undefined ? 'HEAD' : `refs/heads/${branch}`;
  if (!('commit' in ref)) return { remoteRef, name: branch ?? 'HEAD' };
  if (!/^[0-9a-f]{40}$/i.test(ref.commit))
    throw new RemoteRevisionNotFoundError(ref.commit, 'a pinned commit must be a full 40-hex commit id');
  return { remoteRef, name: branch ?? 'HEAD', pin: ref.commit.toLowerCase() };
}

const strip = (name: string, prefix: string): string =>
  name.startsWith(prefix) ? name.slice(prefix.length) : name;

interface FetchContext {
  readonly repoDir: string;
  /** For messages and the store's config. */
  readonly url: string;
  /** What isomorphic-git is given (a placeholder for SSH remotes). */
  readonly fetchUrl: string;
  readonly headers: Record<string, string>;
  readonly http: HttpClient;
  readonly remoteRef: string;
  readonly pin: string | undefined;
}

/** Fetches `remoteRef` (deepening for a pin) and returns the fetched object: the head, the tag, or the pinned commit. */
async function fetchHead(ctx: FetchContext): Promise<string> {
  await prepareRepo(ctx.repoDir, ctx.url);
  const cache = {};
  for (const depth of DEPTHS) {
    const result = await git.fetch({
      fs,
      http: ctx.http,
      dir: ctx.repoDir,
      url: ctx.fetchUrl,
      remote: 'origin',
      ref: LAST_FETCHED,
      remoteRef: ctx.remoteRef,
      singleBranch: true,
      tags: false,
      depth,
      headers: { ...ctx.headers }, // isomorphic-git writes into it
      cache,
    });
    if (!result.fetchHead) throw new RemoteRevisionNotFoundError(ctx.remoteRef, 'the repository is empty');
    await git.writeRef({ fs, dir: ctx.repoDir, ref: LAST_FETCHED, value: result.fetchHead, force: true });
    if (ctx.pin === undefined) return result.fetchHead;
    if (await reachable(ctx.repoDir, result.fetchHead, ctx.pin, cache)) return ctx.pin;
    if (!(await isShallow(ctx.repoDir)))
      throw new RemoteRevisionNotFoundError(ctx.pin, `commit is not on ${ctx.remoteRef} of ${ctx.url}`);
  }
  throw new RemoteRevisionNotFoundError(ctx.pin!, `commit is not on ${ctx.remoteRef} of ${ctx.url}`);
}

/** Creates the object store, or drops it for a fresh clone when it belongs to another URL or has too many packs. */
async function prepareRepo(repoDir: string, url: string): Promise<void> {
  const gitdir = join(repoDir, '.git');
  if (fs.existsSync(join(gitdir, 'config'))) {
    const current = await git
      .getConfig({ fs, dir: repoDir, path: 'remote.origin.url' })
      .catch(() => undefined);
    const packs = await fs.promises.readdir(join(gitdir, 'objects', 'pack')).catch(() => [] as string[]);
    if (current === url && packs.filter((p) => p.endsWith('.pack')).length <= MAX_PACKS) return;
    await fs.promises.rm(repoDir, { recursive: true, force: true });
  }
  await fs.promises.mkdir(repoDir, { recursive: true });
  await git.init({ fs, dir: repoDir, defaultBranch: 'main' });
  await git.addRemote({ fs, dir: repoDir, remote: 'origin', url, force: true });
}

async function reachable(repoDir: string, head: string, pin: string, cache: object): Promise<boolean> {
  if (head === pin) return true;
  try {
    const peeled = await resolveRevision({ fs, dir: repoDir, ref: head, cache });
    if (peeled === pin) return true;
    await git.readCommit({ fs, dir: repoDir, oid: pin, cache });
    return await git.isDescendent({ fs, dir: repoDir, oid: peeled, ancestor: pin, depth: -1, cache });
  } catch {
    return false; // not in the store yet, or history cut by the shallow boundary: deepen
  }
}

async function isShallow(repoDir: string): Promise<boolean> {
  const text = await fs.promises.readFile(join(repoDir, '.git', 'shallow'), 'utf8').catch(() => '');
  return text.trim() !== '';
}
