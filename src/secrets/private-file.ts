import { randomBytes } from 'node:crypto';
import { constants, lstatSync } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { GroundworkError } from '../core/errors.js';

/** SecretOutputRefused naming `path`. */
export function outputRefused(path: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'SecretOutputRefused', subject: path, message, fix });
}

/**
 * Writes `text` to a new file `path`, readable by its owner only (`mode` 0600 unless told), as
 * `age-keygen -o` does:
 * never over an existing file, never through a symbolic link (`O_EXCL | O_NOFOLLOW`), flushed to
 * disk before it returns. Throws SecretOutputRefused for a path that exists or is a link; the
 * text is never in a message.
 */
export async function writeNewPrivateFile(path: string, text: string, mode = 0o600): Promise<void> {
  let file;
  try {
    file = await open(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP')
      throw outputRefused(
        path,
        code === 'EEXIST' ? 'exists: it is never overwritten' : 'is a symbolic link',
        'name a new file; remove the old one yourself if you mean to replace it',
      );
    throw err;
  }
  try {
    await file.chmod(mode);
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * The root of the git work tree holding `path` (the nearest parent with a `.git` entry), or
 * undefined. Plaintext and private keys are kept out of it by default: there they are one
 * `git add` away from a commit.
 */
export function gitWorkTreeOf(path: string): string | undefined {
  let dir = dirname(resolve(path));
  for (;;) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

/**
 * Replaces `target` with `text` atomically (a new file beside it, flushed, renamed over it), with
 * `mode`, so a reader sees the old file or the new one and a crash leaves one of them.
 * `unchanged` is called just before the rename and must confirm the target is still what was
 * read (else it throws, and the new file is removed). Refuses a target that is a symbolic link.
 */
export async function replaceAtomically(
  target: string,
  text: string,
  opts: { mode: number; unchanged: () => Promise<void> },
): Promise<void> {
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    try {
      await file.chmod(opts.mode & 0o7777);
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await opts.unchanged();
    if ((await lstat(target)).isSymbolicLink())
      throw outputRefused(target, 'is a symbolic link', 'edit the file it points at');
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
