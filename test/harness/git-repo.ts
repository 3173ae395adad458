import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Runs the real `git` CLI in `cwd` with a fixed identity, ignoring the user's and the system's
 * config, and returns its trimmed stdout. `date` sets author and committer date (ISO 8601).
 */
export function runGit(cwd: string, args: readonly string[], opts: { date?: string } = {}): string {
  return execFileSync('git', gitArgs(args), {
    ...execOptions(cwd, opts.date),
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * `runGit` without blocking the event loop: needed whenever git talks to a server living in the
 * same process (a push to `startGitServer`), which a synchronous call would deadlock.
 */
export async function runGitAsync(
  cwd: string,
  args: readonly string[],
  opts: { date?: string } = {},
): Promise<string> {
  const { stdout } = await promisify(execFile)('git', gitArgs(args), execOptions(cwd, opts.date));
  return stdout.trim();
}

const gitArgs = (args: readonly string[]): string[] => [
  '-c',
  'commit.gpgsign=false',
  '-c',
  'tag.gpgsign=false',
  ...args,
];

function execOptions(cwd: string, date = '2025-01-01T00:00:00Z') {
  return {
    cwd,
    encoding: 'utf8' as const,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Groundwork Test',
      GIT_AUTHOR_EMAIL: 'test@groundwork.invalid',
      GIT_COMMITTER_NAME: 'Groundwork Test',
      GIT_COMMITTER_EMAIL: 'test@groundwork.invalid',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  };
}

export interface GitRepoOptions {
  /** Directory for the bare repository (`<root>/<name>.git`, what a git server serves) and the work clone. */
  readonly root: string;
  /** Repository name, without `.git`. */
  readonly name: string;
  /** The initial branch. @default 'main' */
  readonly branch?: string;
}

/**
 * A bare repository plus a working clone of it, driven with the real git CLI: write files,
 * commit, tag, push. Commit dates step one minute per commit from 2025-01-01, so commit ids are
 * reproducible.
 *
 * @example
 * const repo = createGitRepo({ root, name: 'platform' });
 * repo.writeFiles({ 'groundwork.yaml': 'name: demo\n' });
 * const sha = repo.commit('first');
 * await repo.push();
 */
export class GitRepo {
  /** The bare repository, `<root>/<name>.git`. */
  readonly bareDir: string;
  /** The work clone, `<root>/<name>-work`. */
  readonly workDir: string;
  /** The repository's path relative to the server root, e.g. `platform.git`. */
  readonly path: string;
  private commits = 0;

  constructor(opts: GitRepoOptions) {
    const branch = opts.branch ?? 'main';
    this.path = `${opts.name}.git`;
    this.bareDir = join(opts.root, this.path);
    this.workDir = join(opts.root, `${opts.name}-work`);
    mkdirSync(this.bareDir, { recursive: true });
    runGit(this.bareDir, ['init', '-q', '--bare', `--initial-branch=${branch}`]);
    mkdirSync(this.workDir, { recursive: true });
    runGit(this.workDir, ['init', '-q', `--initial-branch=${branch}`]);
    runGit(this.workDir, ['remote', 'add', 'origin', this.bareDir]);
  }

  /** Runs git in the work clone. */
  git(...args: string[]): string {
    return runGit(this.workDir, args, { date: this.date() });
  }

  /** Writes files (relative paths, parent directories created); `null` deletes a file. */
  writeFiles(files: Record<string, string | null>): this {
    for (const [path, content] of Object.entries(files)) {
      const target = join(this.workDir, path);
      if (content === null) rmSync(target, { force: true });
      else {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    }
    return this;
  }

  /** Stages everything and commits; returns the new commit id. */
  commit(message: string): string {
    this.commits++;
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  /** Creates a tag at HEAD (annotated when `message` is given). */
  tag(name: string, message?: string): this {
    if (message) this.git('tag', '-a', name, '-m', message);
    else this.git('tag', name);
    return this;
  }

  /** Switches the work clone to `branch`, creating it at HEAD when it does not exist. */
  checkout(branch: string): this {
    const exists = this.git('branch', '--list', branch) !== '';
    this.git('checkout', '-q', ...(exists ? [] : ['-b']), branch);
    return this;
  }

  /**
   * Pushes every branch and tag to `remote` (default: the bare repository on disk; pass a server
   * URL, e.g. `server.url(repo.path)`, to push over HTTP). `force` allows rewriting history.
   * Asynchronous, so that a server in the same process can answer.
   */
  async push(opts: { remote?: string; force?: boolean } = {}): Promise<void> {
    const remote = opts.remote ?? 'origin';
    const force = opts.force ? ['--force'] : [];
    await runGitAsync(this.workDir, ['push', '-q', ...force, remote, '--all']);
    await runGitAsync(this.workDir, ['push', '-q', ...force, remote, '--tags']);
  }

  /** Ids of the branch's commits, newest first. */
  log(ref = 'HEAD'): string[] {
    return this.git('rev-list', ref).split('\n');
  }

  private date(): string {
    return new Date(Date.UTC(2025, 0, 1) + this.commits * 60_000).toISOString();
  }
}

/** Creates a bare repository and its work clone under `root`. */
export function createGitRepo(opts: GitRepoOptions): GitRepo {
  return new GitRepo(opts);
}
