import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { exportRevision } from './read-revision.js';
import { PathNotFoundError } from './source-errors.js';

interface CheckoutOptions {
  /** The repository's work dir (holding `.git`) whose object store has the commit. */
  readonly repoDir: string;
  /** Where checkouts live: one directory per commit, named by its id. */
  readonly checkoutsDir: string;
  /** The full commit id. */
  readonly commit: string;
  /** The subdirectory the caller wants, relative to the repository root (`.` for the root). */
  readonly path: string;
  /** For messages: the revision string. */
  readonly revision: string;
  /** How many checkouts to keep, the one made now included. */
  readonly keep: number;
}

/** Platform code is ESM; without a package.json Node (and tsx) would load `platform/*.ts` as CommonJS. */
const DEFAULT_PACKAGE_JSON = '{"type":"module"}\n';
const TMP_PREFIX = '.tmp-';

/**
 * Materializes a commit as `<checkoutsDir>/<commit>` and returns the directory of `path` in it.
 * The tree is written to a temporary sibling and renamed into place, so a checkout directory is
 * either complete or absent; an existing one is reused as it is. Writes `{"type":"module"}` as
 * `package.json` at `path` when there is none. Keeps the `keep` most recently used checkouts and
 * removes the rest (and leftovers of interrupted writes): callers still reading an older checkout
 * must be done with it within `keep - 1` later fetches. Not safe for concurrent calls on the same
 * `checkoutsDir` (`fetchRevision` serializes them).
 */
export async function checkoutCommit(opts: CheckoutOptions): Promise<string> {
  const sub = normalizePath(opts.path, opts.revision);
  const target = join(opts.checkoutsDir, opts.commit);
  await fs.promises.mkdir(opts.checkoutsDir, { recursive: true });
  if (!fs.existsSync(target)) {
    const tmp = join(opts.checkoutsDir, `${TMP_PREFIX}${opts.commit}-${randomBytes(4).toString('hex')}`);
    try {
      await exportRevision({ repoDir: opts.repoDir, ref: opts.commit, dest: tmp });
      await fs.promises.rename(tmp, target);
    } finally {
      await fs.promises.rm(tmp, { recursive: true, force: true });
    }
  }
  const now = new Date();
  await fs.promises.utimes(target, now, now);
  await prune(opts.checkoutsDir, opts.commit, opts.keep);
  const dir = sub ? join(target, ...sub.split('/')) : target;
  await assertDirectoryInside(target, dir, opts.path, opts.revision);
  if (!fs.existsSync(join(dir, 'package.json'))) {
    // Atomic too: a reader never sees a half-written package.json.
    const tmpFile = join(dir, `${TMP_PREFIX}package.json-${randomBytes(4).toString('hex')}`);
    await fs.promises.writeFile(tmpFile, DEFAULT_PACKAGE_JSON);
    await fs.promises.rename(tmpFile, join(dir, 'package.json'));
  }
  return dir;
}

/**
 * The top of the checkout that `checkoutCommit` returned `dir` in for `path`: the commit's whole
 * tree, where `dir` is `path` inside it (the synth sandbox checks the links of the whole tree).
 */
export function checkoutRoot(dir: string, path: string): string {
  const sub = posix.normalize(path.replace(/\\/g, '/')).replace(/\/+$/, '');
  return sub === '.' || sub === '' ? dir : resolve(dir, ...sub.split('/').map(() => '..'));
}

/** `path` as a clean relative POSIX path ('' for the root); refuses absolute paths and `..`. */
function normalizePath(path: string, revision: string): string {
  const clean = posix.normalize(path.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (clean.startsWith('/') || clean === '..' || clean.startsWith('../'))
    throw new PathNotFoundError(path, revision, 'must be a relative path inside the repository');
  return clean === '.' ? '' : clean;
}

/** The directory exists and, symlinks resolved, stays inside the checkout. */
async function assertDirectoryInside(
  root: string,
  dir: string,
  path: string,
  revision: string,
): Promise<void> {
  let real: string;
  try {
    real = await fs.promises.realpath(dir);
  } catch {
    throw new PathNotFoundError(path, revision);
  }
  const rel = relative(await fs.promises.realpath(root), real);
  if (rel === '..' || rel.startsWith(`..${sep}`))
    throw new PathNotFoundError(path, revision, 'leaves the repository');
  if (!(await fs.promises.stat(real)).isDirectory()) throw new PathNotFoundError(path, revision);
}

/** Removes all but the `keep` most recently used checkouts (never `current`), and stale temporary dirs. */
async function prune(checkoutsDir: string, current: string, keep: number): Promise<void> {
  const entries = await fs.promises.readdir(checkoutsDir, { withFileTypes: true });
  const stale = entries.filter((e) => e.name.startsWith(TMP_PREFIX)).map((e) => e.name);
  const checkouts = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && /^[0-9a-f]{40}$/.test(e.name))
      .map(async (e) => ({
        name: e.name,
        mtime: (await fs.promises.stat(join(checkoutsDir, e.name))).mtimeMs,
      })),
  );
  checkouts.sort((a, b) => (a.name === current ? -1 : b.name === current ? 1 : b.mtime - a.mtime));
  const doomed = [...stale, ...checkouts.slice(Math.max(1, keep)).map((c) => c.name)];
  await Promise.all(
    doomed.map((name) => fs.promises.rm(join(checkoutsDir, name), { recursive: true, force: true })),
  );
}
