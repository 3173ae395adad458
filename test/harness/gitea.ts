import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
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
  stop(): Promise<void>;
}

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
 * Starts Gitea (`resolveTool('gitea')`, built once from the Go module proxy) in a temporary
 * directory on a free loopback port: a minimal app.ini (sqlite, offline, templates and locales
 * from the module source as STATIC_ROOT_PATH, webhooks allowed to loopback, root allowed), then
 * `migrate`, `admin user create`, `web`; waits for `/api/v1/version`, and makes a token through
 * the API. `stop()` ends the process (SIGTERM, then SIGKILL after 10 s) and removes the directory.
 */
export async function startGitea(): Promise<Gitea> {
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
  await run(gitea.path, [...base, 'migrate'], { env, timeout: 120_000 });
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
  );
  const child: ChildProcess = spawn(gitea.path, [...base, 'web'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-20_000);
  });
  const log = () => {
    let file = '';
    try {
      file = readFileSync(join(dir, 'log', 'gitea.log'), 'utf8');
    } catch {
      // not written yet
    }
    return `${file}\n${stderr}`;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const apiUrl = `${url}/api/v1`;
  const basic = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`gitea exited (${child.exitCode}): ${log().slice(-2000)}`);
      const ok = await fetch(`${apiUrl}/version`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`gitea not ready in 60 s: ${log().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const api = async (method: string, path: string, body?: unknown, auth = basic) => {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`gitea ${method} ${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
      return text ? (JSON.parse(text) as unknown) : undefined;
    };
    const made = z
      .object({ sha1: z.string() })
      .parse(
        await api('POST', `/users/${admin.username}/tokens`, { name: 'groundwork-test', scopes: ['all'] }),
      );
    const token = made.sha1;
    const tokenAuth = `token ${token}`;
    return {
      url,
      apiUrl,
      admin,
      token,
      async createRepo(name) {
        await api(
          'POST',
          '/user/repos',
          { name, private: false, auto_init: false, default_branch: 'main' },
          tokenAuth,
        );
        const u = new URL(`${url}/${admin.username}/${name}.git`);
        const cloneUrl = u.toString();
        u.username = admin.username;
        u.password = admin.password;
        return { cloneUrl, pushUrl: u.toString(), owner: admin.username, name };
      },
      async addWebhook(repo, hookUrl, secret) {
        await api(
          'POST',
          `/repos/${admin.username}/${repo}/hooks`,
          {
            type: 'gitea',
            active: true,
            events: ['push'],
            config: { url: hookUrl, content_type: 'json', secret },
          },
          tokenAuth,
        );
      },
      async statuses(repo, sha) {
        return z
          .array(statusSchema)
          .parse(await api('GET', `/repos/${admin.username}/${repo}/statuses/${sha}`, undefined, tokenAuth));
      },
      log,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
