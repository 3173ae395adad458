import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GroundworkError } from '../core/errors.js';
import { startGitServer } from './git-server.js';

/** A local repository served read-only over smart HTTP (`groundwork git serve`). */
export interface ServedRepository {
  /** The clone URL to give the agent (`--repo`): no credentials in it. */
  readonly url: string;
  /** The token every request must carry (Basic password or Bearer); undefined when served anonymously. */
  readonly token: string | undefined;
  /** The repository's git dir. */
  readonly gitDir: string;
  /** Where `dir` is inside the work tree (`clusters/prod/`), '' at its top: the agent's `--path`. */
  readonly prefix: string;
  readonly branches: readonly string[];
  readonly tags: readonly string[];
  /** The work tree has changes that are not committed (they are not served). */
  readonly dirty: boolean;
  stop(): Promise<void>;
}

export interface ServeRepositoryOptions {
  /** A directory in a work tree, or a bare repository. */
  readonly dir: string;
  /** @default 0 (a free port) */
  readonly port?: number;
  /** Require this token, or a new random one (`true`), or none (`false`). @default true */
  readonly token?: string | boolean;
}

/**
 * Serves the git repository holding `dir` on 127.0.0.1, read-only (`startGitServer` with
 * `readOnly`: fetches only, branches and tags only), as `/<name>.git` where name is the work
 * tree's (or bare repository's) directory name. With a token, every request without it is 401:
 * another local user can reach a loopback port. Commits are served, not the work tree: `dirty`
 * says when something is not committed. Throws `NotAGitRepository` when `dir` is in none.
 */
export async function serveRepository(opts: ServeRepositoryOptions): Promise<ServedRepository> {
  const dir = resolve(opts.dir);
  const git = async (...args: string[]) =>
    (await promisify(execFile)('git', args, { cwd: dir })).stdout.trim();
  let gitDir: string;
  let bare: boolean;
  try {
    [gitDir, bare] = await Promise.all([
      git('rev-parse', '--absolute-git-dir'),
      git('rev-parse', '--is-bare-repository').then((b) => b === 'true'),
    ]);
  } catch {
    throw new GroundworkError({
      code: 'NotAGitRepository',
      subject: dir,
      message: 'not inside a git repository',
      fix: 'run groundwork git serve in (or name) a directory of your platform repository, after git init and a first commit',
    });
  }
  const top = bare ? gitDir : await git('rev-parse', '--show-toplevel');
  const prefix = bare ? '' : await git('rev-parse', '--show-prefix');
  const refs = (kind: string) =>
    git('for-each-ref', '--format=%(refname:short)', `refs/${kind}/`).then((t) => (t ? t.split('\n') : []));
  const [branches, tags, status] = await Promise.all([
    refs('heads'),
    refs('tags'),
    bare ? Promise.resolve('') : git('status', '--porcelain'),
  ]);
  const name = `${
    basename(top)
      .replace(/\.git$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '-') || 'repository'
  }.git`;
  const token =
    opts.token === false
      ? undefined
      : typeof opts.token === 'string'
        ? opts.token
        : randomBytes(24).toString('base64url');
  const server = await startGitServer({
    repository: { name, gitDir },
    readOnly: true,
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(token ? { auth: { token } } : {}),
  });
  return {
    url: server.url(name),
    token,
    gitDir,
    prefix,
    branches,
    tags,
    dirty: status !== '',
    stop: () => server.stop(),
  };
}
