// What the synth child may read, and the symbolic links that would let it read more.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isWithin } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';

/**
 * Top-level entries of a checkout the child may not read: git's directory (a local clone's config
 * can hold credentials) and installed packages (the bundle holds every library the platform imports).
 */
const NOT_GRANTED = new Set(['.git', 'node_modules']);

/**
 * The paths of the checkout `dir` (a real path) the child may read: each top-level entry but
 * `.git` and `node_modules`, a directory with everything under it. A name holding `*` is left out
 * (Node reads it as a wildcard). Safe only after `assertSymlinksStayInside`: Node's permission
 * model follows symbolic links below a granted path wherever they lead.
 */
export function sandboxReadPaths(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !NOT_GRANTED.has(e.name) && !e.name.includes('*'))
    .map((e) => join(dir, e.name))
    .map((path) => (isDirectory(path) ? `${path}/` : path));
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

interface SymlinkCheckOptions {
  /** The checkout synth reads, a real path. */
  readonly dir: string;
  /**
   * The top of the tree the checkout was written from, a real path: the commit's root when `dir`
   * is a subdirectory of the repository. Every link in it is checked. @default dir
   */
  readonly treeRoot?: string;
}

/** A link refused, and why (never what it points to outside). */
interface Refused {
  readonly link: string;
  readonly why: string;
}

/**
 * Refuses synth (`SymlinkOutsideCheckout`, naming each link by its path in the repository) when a
 * symbolic link anywhere under `treeRoot`, `.git` and `node_modules` included, could carry a read
 * of the child out of the checkout. Node's permission model checks a path as written, `..`
 * collapsed, and the system then follows links, so a link is safe only when
 * - its real target is inside `treeRoot` and not in a `.git` directory (a dangling link: where it
 *   stops existing), and
 * - when the target is a directory, it is no shallower than the link: `a/b/up -> ..` would let
 *   `a/b/up/../x` (checked as `a/b/x`) read `x` beside the checkout. A link to a file, or to a
 *   directory at its own depth or deeper, keeps working.
 * Returns how many entries and links it saw, and how many of the links name an absolute target (a
 * path of this machine: one that resolves only where the tree is, `renderPlatform` renders such a
 * tree at its own path). Does not follow links while walking.
 */
export async function assertSymlinksStayInside(
  opts: SymlinkCheckOptions,
): Promise<{ entries: number; links: number; absoluteLinks: number }> {
  const root = opts.treeRoot ?? opts.dir;
  const refused: Refused[] = [];
  let entries = 0;
  let links = 0;
  let absoluteLinks = 0;
  const pending = [root];
  for (let d = pending.pop(); d !== undefined; d = pending.pop()) {
    let list: Dirent[];
    try {
      list = await readdir(d, { withFileTypes: true });
    } catch {
      continue; // unreadable for us is unreadable for the child too
    }
    for (const e of list) {
      entries++;
      const path = join(d, e.name);
      if (e.isDirectory()) pending.push(path);
      else if (e.isSymbolicLink()) {
        links++;
        if (isAbsolute(await readlink(path).catch(() => ''))) absoluteLinks++;
        const why = await whyUnsafe(root, path);
        if (why) refused.push({ link: relative(root, path), why });
      }
    }
  }
  if (refused.length > 0) throw symlinkError(refused);
  return { entries, links, absoluteLinks };
}

async function whyUnsafe(root: string, link: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(link);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return 'cannot be resolved (a loop of links)';
    const reached = await existingEnd(link);
    return isWithin(root, reached) && !inGit(root, reached) ? undefined : 'leads outside the repository';
  }
  if (!isWithin(root, real)) return 'leads outside the repository';
  if (inGit(root, real)) return 'leads into a .git directory';
  if (!(await stat(real)).isDirectory()) return undefined;
  const depth = (p: string) => (relative(root, p) === '' ? 0 : relative(root, p).split(sep).length);
  if (depth(real) < depth(link)) return `is a link to a directory above it (${relative(root, real) || '.'})`;
  return undefined;
}

function inGit(root: string, real: string): boolean {
  return relative(root, real).split(sep).includes('.git');
}

/**
 * Where a dangling link stops: its target followed one name at a time (links included) up to
 * the first name that does not exist. Nothing the child can do creates that name.
 */
async function existingEnd(link: string): Promise<string> {
  const target = await readlink(link);
  let at = isAbsolute(target) ? sep : dirname(link);
  for (const name of target.split(sep)) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      at = dirname(at);
      continue;
    }
    const next = join(at, name);
    if (!(await lstat(next).catch(() => undefined))) return at;
    const real = await realpath(next).catch(() => undefined);
    if (!real) return at;
    at = real;
  }
  return at;
}

function symlinkError(refused: readonly Refused[]): GroundworkError {
  const [first, ...rest] = refused as [Refused, ...Refused[]];
  const more = rest.slice(0, 9).map((r) => `${r.link} ${r.why}`);
  const extra = rest.length > 9 ? [`and ${rest.length - 9} more`] : [];
  return new GroundworkError({
    code: 'SymlinkOutsideCheckout',
    subject: first.link,
    message: `symbolic link ${first.why}; synth reads the repository checkout only${more.length ? `; also: ${[...more, ...extra].join('; ')}` : ''}`,
    fix: 'replace the link with a copy of what it points to; a link may point to a file anywhere in the repository, and to a directory at its own depth or deeper',
  });
}
