import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { z } from 'zod';
import { isAlive } from '../../src/core/process-alive.js';
import { sharedService, type StartedService } from './shared-service.js';
import { tool } from './tools.js';

const run = promisify(execFile);

/** A real Gitea on loopback, with an admin, a token and the means to make repositories. */
export interface Gitea {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly apiUrl: string;
  readonly admin: { readonly username: string; readonly password: string };
  /** An access token of the admin (all scopes). */
  readonly token: string;
  /** Creates a public repository of the admin; returns its clone URL and a push URL with credentials. */
  createRepo(name: string): Promise<{ cloneUrl: string; pushUrl: string; owner: string; name: string }>;
  /** Adds a Gitea webhook (push events, JSON, signed with `secret`) to a repository. */
  addWebhook(repo: string, url: string, secret: string): Promise<void>;
  /** The statuses of a commit, newest first, through Gitea's API. */
  statuses(repo: string, sha: string): Promise<GiteaStatus[]>;
  /** Gitea's log so far (for a failing test's message, and to grep for secrets). */
  log(): string;
  /** Ends a Gitea of `startGitea` and removes its directory; nothing for the run's shared one. */
  stop(): Promise<void>;
}

/** What a client of a running Gitea needs (the shared one's record in the run directory). */
const giteaStateSchema = z.object({
  url: z.string(),
  dir: z.string(),
  admin: z.object({ username: z.string(), password: z.string() }),
  token: z.string(),
});
type GiteaState = z.infer<typeof giteaStateSchema>;

const statusSchema = z.looseObject({
  status: z.string(),
  context: z.string(),
  description: z.string(),
  target_url: z.string().nullish(),
});
export type GiteaStatus = z.infer<typeof statusSchema>;

/** A free loopback port (Gitea's ROOT_URL must name its port before it starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * The run's one Gitea (see `shared-service.ts`): started by the first test file that asks, reused by
 * the others, stopped at the end of the run. Its `stop()` does nothing. Files that share it make
 * repositories with names of their own (the test's namespace is one).
 */
export async function sharedGitea(): Promise<Gitea> {
  const state = await sharedService('gitea', giteaStateSchema, launchGitea);
  return giteaClient(state, async () => {});
}

/** A Gitea for this test file alone; `stop()` ends it and removes its directory. */
export async function startGitea(): Promise<Gitea> {
  const started = await launchGitea();
  const stop = async () => {
    for (const pid of started.pids) signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (started.pids.some(isAlive) && Date.now() < deadline) await sleep(100);
    for (const pid of started.pids) signalGroup(pid, 'SIGKILL');
    rmSync(started.dir, { recursive: true, force: true });
  };
  return giteaClient(started.state, stop);
}

/**
 * Starts Gitea (`tool('gitea')`, built on first use from the Go module proxy) in a temporary
 * directory on a free loopback port: a minimal app.ini (sqlite, offline, templates and locales
 * from the module source as STATIC_ROOT_PATH, webhooks allowed to loopback, root allowed), then
 * `migrate`, `admin user create`, and `web` as a detached process (it may outlive the test file
 * that started it, see `sharedGitea`) logging into the directory; waits for `/api/v1/version` and
 * makes an admin token through the API.
 */
async function launchGitea(): Promise<StartedService<GiteaState>> {
  const gitea = await tool('gitea');
  if (!gitea.moduleDir) throw new Error('gitea: no module source directory (STATIC_ROOT_PATH)');
  const dir = mkdtempSync(join(tmpdir(), 'gw-gitea-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  for (const d of ['data', 'repos', 'log', 'custom']) mkdirSync(join(dir, d));
  const ini = join(dir, 'app.ini');
  writeFileSync(
    ini,
    [
      'APP_NAME = groundwork-test',
      'RUN_MODE = prod',
      `RUN_USER = ${userInfo().username}`,
      'I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true',
      `WORK_PATH = ${dir}`,
      '[server]',
      'PROTOCOL = http',
      'HTTP_ADDR = 127.0.0.1',
      `HTTP_PORT = ${port}`,
      `ROOT_URL = ${url}/`,
      'OFFLINE_MODE = true',
      'DISABLE_SSH = true',
      'START_SSH_SERVER = false',
      'LFS_START_SERVER = false',
      `STATIC_ROOT_PATH = ${gitea.moduleDir}`,
      `APP_DATA_PATH = ${join(dir, 'data')}`,
      '[database]',
      'DB_TYPE = sqlite3',
      `PATH = ${join(dir, 'data', 'gitea.db')}`,
      '[security]',
      'INSTALL_LOCK = true',
      `SECRET_KEY = ${randomBytes(24).toString('hex')}`,
      `INTERNAL_TOKEN = ${randomBytes(48).toString('base64url')}`,
      '[repository]',
      `ROOT = ${join(dir, 'repos')}`,
      '[service]',
      'DISABLE_REGISTRATION = true',
      '[webhook]',
      // Gitea refuses to deliver to private and loopback addresses unless allowed.
      'ALLOWED_HOST_LIST = loopback',
      'DELIVER_TIMEOUT = 10',
      '[log]',
      'MODE = file',
      'LEVEL = Info',
      `ROOT_PATH = ${join(dir, 'log')}`,
      '[cron]',
      'ENABLED = false',
      '',
    ].join('\n'),
  );
  const base = ['--config', ini, '--work-path', dir];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GITEA_WORK_DIR: dir,
    USER: userInfo().username,
  };
  const fail = (err: unknown): never => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  };
  await run(gitea.path, [...base, 'migrate'], { env, timeout: 120_000 }).catch(fail);
  const admin = { username: 'gw-admin', password: `pw-${randomBytes(12).toString('hex')}` };
  await run(
    gitea.path,
    [
      ...base,
      'admin',
      'user',
      'create',
      '--username',
      admin.username,
      '--password',
      admin.password,
      '--email',
      'gw-admin@example.com',
      '--admin',
      '--must-change-password=false',
    ],
    { env, timeout: 60_000 },
  ).catch(fail);
  const out = openSync(join(dir, 'log', 'stderr.log'), 'a');
  const child = spawn(gitea.path, [...base, 'web'], {
    env,
    stdio: ['ignore', 'ignore', out],
    detached: true,
  });
  closeSync(out);
  child.unref();
  const pid = child.pid;
  const kill = () => {
    if (pid) signalGroup(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  if (!pid) return fail(new Error('gitea web did not start'));
  try {
    const apiUrl = `${url}/api/v1`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`gitea exited (${child.exitCode}): ${readLog(dir).slice(-2000)}`);
      const ok = await fetch(`${apiUrl}/version`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`gitea not ready in 60 s: ${readLog(dir).slice(-2000)}`);
      await sleep(250);
    }
    const basic = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
    const made = z.object({ sha1: z.string() }).parse(
      await api(apiUrl, 'POST', `/users/${admin.username}/tokens`, basic, {
        name: 'groundwork-test',
        scopes: ['all'],
      }),
    );
    return { state: { url, dir, admin, token: made.sha1 }, pids: [pid], dir };
  } catch (err) {
    kill();
    throw err;
  }
}

/** The client of a running Gitea: its API as the admin's token, and its log. */
function giteaClient(state: GiteaState, stop: () => Promise<void>): Gitea {
  const { url, admin, token } = state;
  const apiUrl = `${url}/api/v1`;
  const tokenAuth = `token ${token}`;
  return {
    url,
    apiUrl,
    admin,
    token,
    async createRepo(name) {
      await api(apiUrl, 'POST', '/user/repos', tokenAuth, {
        name,
        private: false,
        auto_init: false,
        default_branch: 'main',
      });
      const u = new URL(`${url}/${admin.username}/${name}.git`);
      const cloneUrl = u.toString();
      u.username = admin.username;
      u.password = admin.password;
      return { cloneUrl, pushUrl: u.toString(), owner: admin.username, name };
    },
    async addWebhook(repo, hookUrl, secret) {
      await api(apiUrl, 'POST', `/repos/${admin.username}/${repo}/hooks`, tokenAuth, {
        type: 'gitea',
        active: true,
        events: ['push'],
        config: { url: hookUrl, content_type: 'json', secret },
      });
    },
    async statuses(repo, sha) {
      return z
        .array(statusSchema)
        .parse(await api(apiUrl, 'GET', `/repos/${admin.username}/${repo}/statuses/${sha}`, tokenAuth));
    },
    log: () => readLog(state.dir),
    stop,
  };
}

/** One call of Gitea's API; a non-2xx answer throws with the status and the start of the body. */
async function api(apiUrl: string, method: string, path: string, auth: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`gitea ${method} ${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Gitea's log file and its stderr so far. */
function readLog(dir: string): string {
  const read = (file: string) => {
    try {
      return readFileSync(join(dir, 'log', file), 'utf8');
    } catch {
      return ''; // not written yet
    }
  };
  return `${read('gitea.log')}\n${read('stderr.log').slice(-20_000)}`;
}

/** Signals the process group `pid` leads (Gitea's, started detached). */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone
  }
}
