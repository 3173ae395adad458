import git from 'isomorphic-git';
import type { FsClient } from 'isomorphic-git';
import {
  AmbiguousRevisionError,
  MissingObjectError,
  NotACommitError,
  RevisionNotFoundError,
} from './revision-errors.js';

interface ResolveRevisionOptions {
  /** A file system client (node:fs or a compatible implementation). */
  fs: FsClient;
  /** The repository's working tree root (holding `.git`, a directory or a `gitdir:` file). */
  dir: string;
  /**
   * What `git rev-parse` would accept for a commit, restricted to the common forms: `HEAD`, a branch
   * (`main`, `origin/main`, `refs/heads/main`), a tag (lightweight or annotated), a full or
   * abbreviated commit id, each optionally followed by `~N` and `^N` steps (`HEAD~1`, `main^2`).
   */
  ref: string;
  /** isomorphic-git object cache shared across calls. */
  cache?: object;
}

const REV = /^([^~^]+)((?:[~^]\d*)*)$/;
const STEP = /([~^])(\d*)/g;

/**
 * Resolves a revision to the id of the commit it names. Refs win over abbreviated ids (as in git),
 * annotated tags are peeled, `~N` follows first parents and `^N` the N-th parent. Reads only the
 * object store and refs: never the index or the work tree. Throws `RevisionNotFound`,
 * `AmbiguousRevision`, `NotACommit` or `MissingObject`.
 *
 * @example
 * await resolveRevision({ fs, dir: '.', ref: 'origin/main~1' }) // '3f1c…'
 */
export async function resolveRevision(opts: ResolveRevisionOptions): Promise<string> {
  const { fs, dir, ref, cache = {} } = opts;
  const match = REV.exec(ref.trim());
  if (!match)
    throw new RevisionNotFoundError(
      ref,
      'not a revision: want a branch, tag or commit id with optional ~N/^N',
    );
  let oid = await commitOf(opts, await nameToOid(fs, dir, match[1]!, ref, cache), cache);
  for (const [, op, digits] of match[2]!.matchAll(STEP)) {
    const n = digits === '' ? 1 : Number(digits);
    // `X^0` is X itself; `X~N` is N first-parent steps; `X^N` is the N-th parent.
    const steps = op === '~' ? Array.from({ length: n }, () => 1) : n === 0 ? [] : [n];
    for (const parent of steps) {
      const { commit } = await git.readCommit({ fs, dir, oid, cache });
      const next = commit.parent[parent - 1];
      if (!next) throw new RevisionNotFoundError(ref, `commit ${oid.slice(0, 7)} has no parent #${parent}`);
      oid = await commitOf(opts, next, cache);
    }
  }
  return oid;
}

async function nameToOid(
  fs: FsClient,
  dir: string,
  name: string,
  ref: string,
  cache: object,
): Promise<string> {
  // resolveRef passes any 40-hex string through unchecked; expandOid below checks it exists.
  if (!/^[0-9a-f]{40}$/i.test(name)) {
    try {
      return await git.resolveRef({ fs, dir, ref: name });
    } catch (err) {
      if (codeOf(err) !== 'NotFoundError') throw err;
    }
  }
  if (!/^[0-9a-f]{4,40}$/i.test(name))
    throw new RevisionNotFoundError(ref, 'no branch, tag or commit of that name');
  try {
    return await git.expandOid({ fs, dir, oid: name.toLowerCase(), cache });
  } catch (err) {
    if (codeOf(err) === 'AmbiguousError') throw new AmbiguousRevisionError(ref, err);
    if (codeOf(err) === 'NotFoundError')
      throw new RevisionNotFoundError(ref, 'no branch, tag or commit of that name', err);
    throw err;
  }
}

/** Peels annotated tags down to the commit; anything else is `NotACommit`. */
async function commitOf(opts: ResolveRevisionOptions, oid: string, cache: object): Promise<string> {
  try {
    return (await git.readCommit({ fs: opts.fs, dir: opts.dir, oid, cache })).oid;
  } catch (err) {
    if (codeOf(err) === 'NotFoundError')
      throw new MissingObjectError(opts.ref, `object ${oid.slice(0, 7)}`, err);
    if (codeOf(err) === 'ObjectTypeError') {
      const { type } = await git.readObject({ fs: opts.fs, dir: opts.dir, oid, format: 'parsed', cache });
      throw new NotACommitError(opts.ref, type);
    }
    throw err;
  }
}

function codeOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined;
}
