// The agent's install of a platform repository's locked dependencies, cached by lockfile.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, realpath, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readConfinedFile } from '../../core/confined-file.js';
import { GroundworkError } from '../../core/errors.js';
import { hasCode } from '../../core/errors.js';
import { installsNothing, lockfileProblems, NPM_REGISTRY } from './lockfile-check.js';

/** Changes when the install changes (flags, checks), so that no older install is reused. */
const INSTALL_REVISION = 1;

/** How many installs the cache keeps (most recently used first). */
const CACHE_ENTRIES = 4;

/** The environment the npm process keeps: no credentials, no npm_config_* of the agent's. */
const NPM_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

/** The file a finished install holds; an install without it is not reused. */
const DONE = '.groundwork-installed';

export interface InstallDependenciesOptions {
  /** The checkout (holds groundwork.yaml, and package.json and package-lock.json when it has libraries). */
  dir: string;
  /** Where installs are kept, one directory per lockfile (`<cacheDir>/<key>/node_modules`). */
  cacheDir: string;
  /** The npm registry to install from (http or https, no credentials). @default NPM_REGISTRY */
  registry?: string;
  /** Stop npm after this long. @default 300_000 */
  timeoutMs?: number;
  /** The npm command. @default 'npm' (from PATH) */
  npm?: string;
}

/** A finished install: `root` holds `node_modules` (a real path), ready for `libraryRoots`. */
export interface InstalledDependencies {
  root: string;
  /** True when an earlier install of the same lockfile was reused. */
  cached: boolean;
  /** How long it took (the cache check, or the install). */
  ms: number;
}

const fail = (message: string, fix: string, cause?: unknown) =>
  new GroundworkError({ code: 'DependencyInstallFailed', subject: 'package-lock.json', message, fix, cause });

/**
 * Installs the production dependencies of the checkout's package-lock.json, as `npm ci
 * --ignore-scripts --omit=dev` would in the checkout, into `<cacheDir>/<key>` keyed by the
 * lockfile's hash (and the registry), and reuses that install while the lockfile is unchanged.
 * Returns undefined when the checkout has no package-lock.json, or its package.json lists no
 * `dependencies` or `optionalDependencies` (only devDependencies): nothing to install.
 *
 * Both files are read inside the checkout (by real path: a symbolic link out is
 * `PathOutsideCheckout`). Only the lockfile and package.json are copied to the install directory: no `.npmrc` or other
 * file of the repository steers npm. Before npm runs, `lockfileProblems` must find nothing (only
 * registry tarballs with integrity hashes, no paths, links or git sources). npm runs with no
 * install scripts, from `registry`, with an environment of `NPM_ENV` only (no git token, webhook
 * secret, cloud or kubeconfig variables), an empty user and global config and its own cache, in
 * its own process group, stopped after `timeoutMs`. A failed install leaves nothing in the cache.
 * Every failure is `DependencyInstallFailed`, whose message quotes at most the end of npm's output.
 * Does not confine what the platform later imports: the bundler does (by real path).
 */
export async function installDependencies(
  opts: InstallDependenciesOptions,
): Promise<InstalledDependencies | undefined> {
  const started = Date.now();
  const lockText = await readInput(opts.dir, 'package-lock.json');
  if (lockText === undefined) return undefined;
  const pkgText = await readInput(opts.dir, 'package.json');
  if (pkgText === undefined)
    throw fail(
      'the repository has a package-lock.json but no package.json',
      'commit package.json with its lockfile',
    );
  const packageJson = parse(pkgText, 'package.json');
  // Only devDependencies (groundwork-gitops, typescript: the agent brings its own): nothing for the
  // platform to import, so nothing to install, whatever sources those name (a tarball, a directory).
  if (installsNothing(packageJson)) return undefined;
  const registry = opts.registry ?? NPM_REGISTRY;
  const problems = lockfileProblems({
    lockfile: parse(lockText, 'package-lock.json'),
    packageJson,
    registry,
  });
  if (problems.length > 0)
    throw fail(
      `refused: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
      'depend on registry packages only (npm install <name>), keep paths, links and git sources in devDependencies, and commit the lockfile npm writes',
    );
  const key = createHash('sha256')
    .update(`${INSTALL_REVISION}\0${registry}\0${pkgText}\0${lockText}`)
    .digest('hex')
    .slice(0, 32);
  const target = join(opts.cacheDir, key);
  if (await exists(join(target, DONE))) {
    const now = new Date();
    await utimes(target, now, now).catch(() => {}); // in use: the newest, last to be evicted
    return { root: await realpath(target), cached: true, ms: Date.now() - started };
  }
  await mkdir(opts.cacheDir, { recursive: true });
  const tmp = join(opts.cacheDir, `${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(tmp);
    await writeFile(join(tmp, 'package.json'), pkgText);
    await writeFile(join(tmp, 'package-lock.json'), lockText);
    await writeFile(join(tmp, '.npmrc-user'), '');
    await writeFile(join(tmp, '.npmrc-global'), '');
    await runNpm({ ...opts, cwd: tmp, registry });
    await writeFile(join(tmp, DONE), `${new Date().toISOString()}\n`);
    await rename(tmp, target).catch(async (err: NodeJS.ErrnoException) => {
      // Another install of the same lockfile finished first: use it.
      if (!(await exists(join(target, DONE)))) throw err;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  await evict(opts.cacheDir, key);
  return { root: await realpath(target), cached: false, ms: Date.now() - started };
}

/** `npm ci --ignore-scripts --omit=dev` in `cwd`, with no credentials, bounded in time. */
function runNpm(opts: InstallDependenciesOptions & { cwd: string; registry: string }): Promise<void> {
  const env: NodeJS.ProcessEnv = {};
  for (const k of NPM_ENV) if (process.env[k] !== undefined) env[k] = process.env[k];
  // npm's home: no ~/.npmrc, ~/.gitconfig or token file of the agent's user.
  env.HOME = opts.cwd;
  const args = [
    'ci',
    '--ignore-scripts',
    '--omit=dev',
    `--registry=${opts.registry}`,
    `--userconfig=${join(opts.cwd, '.npmrc-user')}`,
    `--globalconfig=${join(opts.cwd, '.npmrc-global')}`,
    `--cache=${join(opts.cacheDir, '.npm')}`,
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
    '--install-links=false',
    '--loglevel=error',
  ];
  const timeoutMs = opts.timeoutMs ?? 300_000;
  return new Promise((resolve, reject) => {
    const child = spawn(opts.npm ?? 'npm', args, {
      cwd: opts.cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true, // its own process group: the timeout stops npm and whatever it started
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(
        fail(
          `npm could not start (${err.message})`,
          'install npm in the agent image, or put it on PATH',
          err,
        ),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut)
        reject(
          fail(
            `npm ci did not finish in ${Math.round(timeoutMs / 1000)}s`,
            'check that the registry is reachable from the agent (--npm-registry), or raise --npm-timeout',
          ),
        );
      else if (code !== 0)
        reject(
          fail(
            `npm ci exited ${code}: ${tail(stderr)}`,
            'run `npm ci --ignore-scripts --omit=dev` in the repository to reproduce, and check --npm-registry',
          ),
        );
      else resolve();
    });
  });
}

/** The last lines of npm's error output, on one line. */
function tail(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/^npm (error|ERR!) ?/, '').trim());
  return lines.filter(Boolean).slice(-6).join(' / ').slice(-1000) || 'no output';
}

/**
 * The checkout's file `name` (package.json, package-lock.json), read as every file a repository
 * names is: its real path inside the checkout (a symbolic link out is `PathOutsideCheckout`,
 * nothing read), a regular file, bounded. Undefined when it does not exist.
 */
async function readInput(dir: string, name: string): Promise<string | undefined> {
  try {
    return await readConfinedFile({ root: dir, path: name, maxBytes: 16 * 1024 * 1024, what: name });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (hasCode(err, 'NotARegularFile') || hasCode(err, 'FileTooLarge'))
      throw fail(`${name} ${err.message.replace(/^[^:]*: /, '')}`, err.fix ?? 'commit a regular file', err);
    throw err;
  }
}

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw fail(`${what} is not JSON`, `commit the ${what} npm writes`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Removes all but the `CACHE_ENTRIES` most recently used installs (never `keep`). */
async function evict(cacheDir: string, keep: string): Promise<void> {
  const names = (await readdir(cacheDir)).filter((n) => /^[0-9a-f]{32}$/.test(n) && n !== keep);
  const dated = await Promise.all(
    names.map(async (n) => ({ n, t: (await stat(join(cacheDir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  dated.sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(CACHE_ENTRIES - 1))
    await rm(join(cacheDir, n), { recursive: true, force: true });
}
