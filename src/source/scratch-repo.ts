import * as fs from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import type { HttpClient } from 'isomorphic-git';
import type { GitAuth } from './credentials.js';
import { openRemote, type Remote } from './remote.js';

/** Where a scratch repository fetches from and pushes to, and how long one git operation may take. */
export interface ScratchRepoOptions {
  url: string;
  auth?: GitAuth;
  http?: HttpClient;
  /** The most one ref listing, fetch or push may take (`withGitDeadline`). @default GIT_TIMEOUT_MS (120 s) */
  timeoutMs?: number;
}

/**
 * A new empty repository in a temporary directory named `prefix…`, with `origin` at the remote of
 * `opts.url` (`openRemote` with `push`: credentials as a header, never in the URL or a file). The
 * caller removes the directory and closes the remote. Opens no connection.
 */
export async function openScratchRepo(
  prefix: string,
  opts: ScratchRepoOptions,
): Promise<{ dir: string; remote: Remote }> {
  const remote = openRemote(opts.url, opts.auth, { ...(opts.http ? { http: opts.http } : {}), push: true });
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await git.init({ fs, dir, defaultBranch: 'main' });
  await git.addRemote({ fs, dir, remote: 'origin', url: remote.url });
  return { dir, remote };
}
