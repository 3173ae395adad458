import * as nodeFs from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import git from 'isomorphic-git';
import type { FsClient, TreeEntry } from 'isomorphic-git';
import {
  ExportTargetNotEmptyError,
  MissingObjectError,
  NotAGitRepositoryError,
  UnsafeTreeEntryError,
} from './revision-errors.js';
import { resolveRevision } from './resolve-revision.js';

interface ExportRevisionOptions {
  /** A directory inside the repository's working tree (usually the platform repository root). */
  repoDir: string;
  /** Branch, tag or commit id, with optional `~N`/`^N` (see `resolveRevision`). */
  ref: string;
  /** Where to write the tree; created when missing, refused when not empty. */
  dest: string;
  /** File system for reading the repository and writing `dest`. @default node:fs */
  fs?: typeof nodeFs;
}

interface ExportedRevision {
  /** The commit id `ref` resolved to. */
  oid: string;
  /** Where `repoDir` lives in the export: `dest`, or `dest/<sub>` when `repoDir` is a subdirectory of the repository. */
  dir: string;
}

/** Platform code is ESM; without a package.json Node (and tsx) would load `platform/*.ts` as CommonJS. */
const DEFAULT_PACKAGE_JSON = '{"type":"module"}\n';

/**
 * Writes the tree of one commit into `dest`, reading the object store through isomorphic-git:
 * like `git archive <ref> | tar -x -C <dest>`, without a git binary. Regular files keep their
 * executable bit, symlinks stay symlinks, submodules become empty directories (as in a checkout
 * without `--recurse-submodules`). When the tree has no `package.json` at its root, writes
 * `{"type":"module"}` there. Never reads or writes the work tree or the index of the repository,
 * and never fetches: a commit missing from a shallow clone is `MissingObject`.
 *
 * @example
 * const { oid, dir } = await exportRevision({ repoDir: '.', ref: 'origin/main', dest: '/tmp/base' });
 */
export async function exportRevision(opts: ExportRevisionOptions): Promise<ExportedRevision> {
  const fs = opts.fs ?? nodeFs;
  const client = fs as unknown as FsClient;
  const repoDir = resolve(opts.repoDir);
  let root: string;
  try {
    root = await git.findRoot({ fs: client, filepath: repoDir });
  } catch (err) {
    throw new NotAGitRepositoryError(opts.repoDir, err);
  }
  const cache = {};
  const oid = await resolveRevision({ fs: client, dir: root, ref: opts.ref, cache });
  await prepareDest(fs, opts.dest);
  const ctx: Ctx = { fs, client, root, ref: opts.ref, cache };
  const entries = await readEntries(ctx, oid, 'the root tree');
  await writeTree(ctx, entries, opts.dest);
  if (!entries.some((e) => e.path === 'package.json')) {
    await fs.promises.writeFile(join(opts.dest, 'package.json'), DEFAULT_PACKAGE_JSON);
  }
  const sub = relative(root, repoDir);
  return { oid, dir: sub && !sub.startsWith('..') ? join(opts.dest, ...sub.split(sep)) : opts.dest };
}

interface Ctx {
  fs: typeof nodeFs;
  client: FsClient;
  root: string;
  ref: string;
  cache: object;
}

async function prepareDest(fs: typeof nodeFs, dest: string): Promise<void> {
  await fs.promises.mkdir(dest, { recursive: true });
  if ((await fs.promises.readdir(dest)).length > 0) throw new ExportTargetNotEmptyError(dest);
}

async function readEntries(ctx: Ctx, oid: string, what: string): Promise<TreeEntry[]> {
  try {
    return (await git.readTree({ fs: ctx.client, dir: ctx.root, oid, cache: ctx.cache })).tree;
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') throw new MissingObjectError(ctx.ref, what, err);
    throw err;
  }
}

/** Writes one tree level; siblings in parallel, subtrees recursively. */
async function writeTree(ctx: Ctx, entries: readonly TreeEntry[], dir: string): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      // Git stores single names per level; refuse anything a checkout would refuse.
      if (
        !entry.path ||
        entry.path === '.' ||
        entry.path === '..' ||
        entry.path.toLowerCase() === '.git' ||
        /[/\\\0]/.test(entry.path)
      ) {
        throw new UnsafeTreeEntryError(ctx.ref, entry.path);
      }
      const target = join(dir, entry.path);
      if (entry.type === 'tree') {
        await ctx.fs.promises.mkdir(target);
        await writeTree(ctx, await readEntries(ctx, entry.oid, `tree ${entry.path}`), target);
      } else if (entry.type === 'commit') {
        await ctx.fs.promises.mkdir(target); // submodule: an empty directory, as git leaves it
      } else {
        const blob = await readBlob(ctx, entry);
        if (entry.mode === '120000')
          await ctx.fs.promises.symlink(Buffer.from(blob).toString('utf8'), target);
        else {
          const mode = entry.mode === '100755' ? 0o755 : 0o644;
          await ctx.fs.promises.writeFile(target, blob, { mode });
          await ctx.fs.promises.chmod(target, mode); // writeFile's mode is filtered by the umask
        }
      }
    }),
  );
}

async function readBlob(ctx: Ctx, entry: TreeEntry): Promise<Uint8Array> {
  try {
    return (await git.readBlob({ fs: ctx.client, dir: ctx.root, oid: entry.oid, cache: ctx.cache })).blob;
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError')
      throw new MissingObjectError(ctx.ref, `blob ${entry.path}`, err);
    throw err;
  }
}
