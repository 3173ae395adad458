import { constants } from 'node:fs';
import { lstat, mkdtemp, open, readdir, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join } from 'node:path';
import { readBoundedFile } from '../core/confined-file.js';
import { editorFailed } from './editor-command.js';
import { MAX_SOPS_FILE_BYTES } from './sops-document.js';

/** A private directory holding the plaintext copy an editor works on. */
export interface EditWorkspace {
  /** The directory (0700, ours). */
  readonly dir: string;
  /** The plaintext copy (0600), named like the encrypted file so the editor picks its syntax. */
  readonly file: string;
  /** What the editor left in `file` (a regular file of at most 2 MiB). */
  read(): Promise<string>;
  /** Overwrites every file in the directory with zeros, removes them and the directory. Idempotent. */
  wipe(): Promise<void>;
}

/**
 * Writes `plaintext` to a new private directory, as sops's editor does (`os.MkdirTemp`, the file
 * 0600), with more care: under `XDG_RUNTIME_DIR` when it is a directory of ours that no one else
 * can enter (memory-backed on systemd machines, so the plaintext need not reach a disk), else the
 * system's temporary directory; the directory made is checked to be a real directory (not a link),
 * owned by us, mode 0700, and the file is created with `O_EXCL | O_NOFOLLOW`. `wipe` also removes
 * what editors leave beside the file (swap and backup files). Overwriting is best effort: a
 * journaling or copy-on-write file system may keep old blocks.
 */
export async function openEditWorkspace(
  name: string,
  plaintext: string,
  env: NodeJS.ProcessEnv,
): Promise<EditWorkspace> {
  const base = (await privateRuntimeDir(env.XDG_RUNTIME_DIR)) ?? tmpdir();
  const dir = await mkdtemp(join(base, 'groundwork-edit-'));
  const info = await lstat(dir);
  if (!info.isDirectory() || (info.mode & 0o077) !== 0 || (process.getuid && info.uid !== process.getuid())) {
    await rmdir(dir).catch(() => undefined);
    throw editorFailed(
      `the temporary directory ${dir} is not private (a link, or open to others)`,
      'set TMPDIR to a directory of your own',
    );
  }
  const file = join(dir, safeName(name));
  const workspace: EditWorkspace = {
    dir,
    file,
    read: async () => {
      if ((await lstat(file)).isSymbolicLink())
        throw editorFailed('the edited copy was replaced by a symbolic link; nothing was written');
      return readBoundedFile(file, {
        maxBytes: MAX_SOPS_FILE_BYTES,
        what: 'edited copy',
        subject: 'the edited copy',
      });
    },
    wipe: () => wipeDir(dir),
  };
  try {
    const handle = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await handle.writeFile(plaintext);
    } finally {
      await handle.close();
    }
  } catch (err) {
    await workspace.wipe();
    throw err;
  }
  return workspace;
}

/** `XDG_RUNTIME_DIR` when it is an absolute directory of ours with no access for others. */
async function privateRuntimeDir(dir: string | undefined): Promise<string | undefined> {
  if (!dir || !isAbsolute(dir)) return undefined;
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory() || (info.mode & 0o077) !== 0) return undefined;
  if (process.getuid && info.uid !== process.getuid()) return undefined;
  return dir;
}

/** A file name editors recognise: the encrypted file's, with characters beyond `[A-Za-z0-9._-]` dropped. */
function safeName(name: string): string {
  const cleaned = basename(name)
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/^\.+/, '')
    .slice(-100);
  return cleaned || `secret${extname(name).replace(/[^A-Za-z0-9.]/g, '') || '.yaml'}`;
}

async function wipeDir(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile()) await zeroFile(path);
    await rm(path, { recursive: true, force: true });
  }
  await rm(dir, { recursive: true, force: true });
}

async function zeroFile(path: string): Promise<void> {
  try {
    const handle = await open(path, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      const { size } = await handle.stat();
      const zeros = Buffer.alloc(Math.min(size, 1 << 20));
      for (let at = 0; at < size; at += zeros.length)
        await handle.write(zeros, 0, Math.min(zeros.length, size - at), at);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // removed below either way
  }
  await unlink(path).catch(() => undefined);
}
