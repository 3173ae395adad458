// The one way Groundwork reads a file named by a repository: inside the checkout, a regular file,
// and no larger than a bound chosen for what the file is.
import { constants } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { GroundworkError } from './errors.js';

/** Whether `path` is `dir` itself or lies under it (both absolute; compare real paths for a real answer). */
export function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

interface ConfinedPathOptions {
  /** The checkout. The bound is its real path. */
  readonly root: string;
  /** The path as the repository names it: relative to `root` (or absolute, and then inside it). */
  readonly path: string;
}

/**
 * The real path of `path` when it lies inside the real path of `root` (`root` itself included).
 * A `..` or a symbolic link that leads out of the checkout is `PathOutsideCheckout`, naming
 * `path` as given (never the place it leads to), whether or not the place it leads to exists: the
 * answer is no oracle of the files outside the checkout. A path inside the checkout that does not
 * exist rejects with Node's `ENOENT` error, for the caller to word (a missing overlay, a missing
 * catalog).
 */
export async function confinedRealPath(opts: ConfinedPathOptions): Promise<string> {
  const realRoot = await realpath(opts.root).catch((err: NodeJS.ErrnoException) => {
    // The synth child may read below its checkout, not the checkout directory itself; its parent
    // hands it the real path already.
    if (err.code === 'ERR_ACCESS_DENIED') return resolve(opts.root);
    throw err;
  });
  const outside = () =>
    new GroundworkError({
      code: 'PathOutsideCheckout',
      subject: opts.path,
      message: 'leads outside the repository checkout (through ".." or a symbolic link); nothing was read',
      fix: 'keep the file in the repository: copy it in place of the symbolic link, and name it by a path inside the repository',
    });
  const target = resolve(opts.root, opts.path);
  // Lexically first, so a `..` out of the checkout is refused alike whether its target exists.
  if (!isWithin(resolve(opts.root), target) && !isWithin(realRoot, target)) throw outside();
  let real: string;
  try {
    real = await realpath(target);
  } catch (err) {
    const rel = relative(isWithin(resolve(opts.root), target) ? resolve(opts.root) : realRoot, target);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await linkLeadsOut(realRoot, rel)))
      throw outside();
    throw err;
  }
  if (!isWithin(realRoot, real)) throw outside();
  return real;
}

/**
 * For a path that does not resolve (`rel`, below the root): whether a symbolic link on its way leads out of `realRoot`
 * (a dangling link to a missing file outside is refused like one to a file that exists). Follows
 * at most 40 links, lexically; false once a component is missing inside the root.
 */
async function linkLeadsOut(realRoot: string, rel: string): Promise<boolean> {
  const parts = rel.split(sep).filter(Boolean);
  let current = realRoot;
  let hops = 0;
  for (let i = 0; i < parts.length; i++) {
    let next = resolve(current, parts[i]!);
    for (;;) {
      const info = await lstat(next).catch(() => undefined);
      if (!info) return false;
      if (!info.isSymbolicLink()) break;
      if (++hops > 40) return false;
      next = resolve(dirname(next), await readlink(next));
      if (!isWithin(realRoot, next)) return true;
    }
    current = next;
  }
  return false;
}

interface ReadBoundedOptions {
  /** Refuse a file larger than this many bytes (`FileTooLarge`). */
  readonly maxBytes: number;
  /** What the file is, for messages: `update graph`, `overlay`. */
  readonly what: string;
  /** Names the file in errors. @default the path read */
  readonly subject?: string;
}

/**
 * Reads a regular file as UTF-8, refusing anything else (a directory, a FIFO, a device:
 * `NotARegularFile`) and a file over `maxBytes` (`FileTooLarge`) before reading its content.
 * Reads at most `maxBytes + 1` bytes even when the file grows meanwhile. Does not confine the
 * path: use `readConfinedFile` for a path a repository names; this is for the user's own files
 * (a command-line argument).
 */
export async function readBoundedFile(path: string, opts: ReadBoundedOptions): Promise<string> {
  const subject = opts.subject ?? path;
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the stat below refuses it.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await file.stat();
    if (!info.isFile()) {
      throw new GroundworkError({
        code: 'NotARegularFile',
        subject,
        message: `the ${opts.what} must be a regular file`,
        fix: `name a file, not a directory or a device`,
      });
    }
    const tooLarge = (size: string) =>
      new GroundworkError({
        code: 'FileTooLarge',
        subject,
        message: `the ${opts.what} is ${size}; Groundwork reads at most ${formatBytes(opts.maxBytes)} from one`,
        fix: `check that this is the ${opts.what} you meant: real ones are far smaller`,
      });
    if (info.size > opts.maxBytes) throw tooLarge(formatBytes(info.size));
    const buffer = Buffer.alloc(opts.maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > opts.maxBytes) throw tooLarge(`over ${formatBytes(opts.maxBytes)}`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await file.close();
  }
}

/**
 * `readBoundedFile` of a path a repository names (groundwork.yaml, an overlay, a catalog, an
 * update graph), after `confinedRealPath`: the file read is the real path, inside the checkout.
 * Errors name `path` as given, relative to the checkout.
 */
export async function readConfinedFile(
  opts: ConfinedPathOptions & Omit<ReadBoundedOptions, 'subject'>,
): Promise<string> {
  const real = await confinedRealPath(opts);
  return readBoundedFile(real, { maxBytes: opts.maxBytes, what: opts.what, subject: opts.path });
}

/** `512 KiB`, `4 MiB`, `12.3 MiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const [value, unit] = n < 1024 * 1024 ? [n / 1024, 'KiB'] : [n / (1024 * 1024), 'MiB'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
