import { spawn, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Credentials the server demands: Basic with exactly this pair, or a token as the Basic password (any user) or a Bearer token. */
export type GitServerAuth =
  { readonly username: string; readonly password: string } | { readonly token: string };

export interface GitServerOptions {
  /** Directory holding the bare repositories (`<root>/<name>.git`); each is served as `/<name>.git`. */
  readonly root: string;
  /** When set, every request without matching credentials is answered 401. @default none: anonymous */
  readonly auth?: GitServerAuth;
}

/** A running smart-HTTP git server on loopback. */
export interface GitServer {
  /** Port, fixed for the server's life (kept across `restart()`). */
  readonly port: number;
  /** The clone URL of a repository under `root`, e.g. `url('platform.git')`. */
  url(repo: string, userinfo?: { username: string; password: string }): string;
  /** Closes the listener, every open connection and every running `git http-backend`. */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop()` (an outage that ends). */
  restart(): Promise<void>;
  /** Requests served so far, as `METHOD path?query status`. */
  readonly requests: readonly string[];
}

/** Debian's `git http-backend` (looked up lazily: importing this module needs no git). */
let backend: string | undefined;
function backendPath(): string {
  return (backend ??= join(
    execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(),
    'git-http-backend',
  ));
}

/**
 * A local git smart-HTTP server, used by the quick start (serving this repository to the agent) and
 * by the tests. Serves every bare repository under `root` over git's smart-HTTP protocol: a small node:http front
 * on 127.0.0.1 (random port) runs Debian's `git http-backend` as a CGI per request, the way Apache
 * or nginx+fcgiwrap would. Fetch and push (`http.receivepack` is enabled) both work, with the real
 * git CLI and with isomorphic-git.
 *
 * @example
 * const server = await startGitServer({ root, auth: { token: 's3cret' } });
 * git clone server.url('platform.git')
 */
export async function startGitServer(opts: GitServerOptions): Promise<GitServer> {
  const children = new Set<ChildProcess>();
  const requests: string[] = [];
  let server: Server | undefined;
  let port = 0;

  const listen = async (): Promise<void> => {
    const s = createServer((req, res) => {
      serve(opts, req, res, children).then(
        (status) => requests.push(`${req.method} ${req.url} ${status}`),
        (err: unknown) => {
          requests.push(`${req.method} ${req.url} error`);
          if (!res.headersSent) res.writeHead(500).end(String(err));
          else res.destroy();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };

  const stop = async (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const child of children) child.kill('SIGKILL');
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    url: (repo, userinfo) =>
      userinfo
        ? `http://${encodeURIComponent(userinfo.username)}:${encodeURIComponent(userinfo.password)}@127.0.0.1:${port}/${repo}`
        : `http://127.0.0.1:${port}/${repo}`,
    stop,
    restart: async () => {
      await stop();
      await listen();
    },
    requests,
  };
}

/** Answers one request; resolves with the status sent. */
async function serve(
  opts: GitServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  children: Set<ChildProcess>,
): Promise<number> {
  const user = opts.auth ? authenticate(opts.auth, req.headers.authorization) : 'anonymous';
  if (user === undefined) {
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="groundwork-test"', 'Content-Type': 'text/plain' });
    res.end('authentication required\n');
    return 401;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const child = spawn(backendPath(), [], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: opts.root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      // Pushes over HTTP: http-backend refuses receive-pack unless enabled (or REMOTE_USER is set).
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      GIT_PROJECT_ROOT: opts.root,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      SERVER_SOFTWARE: 'groundwork-test-git-server',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      REMOTE_USER: user,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('close', () => children.delete(child));
  const stderr: Buffer[] = [];
  child.stderr!.on('data', (c: Buffer) => stderr.push(c));
  req.pipe(child.stdin!);
  child.stdin!.on('error', () => {}); // the backend may answer (and exit) before reading the whole body
  req.on('aborted', () => child.kill('SIGKILL'));
  res.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return await relayCgi(child, res, stderr);
}

/** Parses the CGI header block from the backend's stdout, then streams the rest as the body. */
function relayCgi(child: ChildProcess, res: ServerResponse, stderr: Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    let status = 0;
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
      if (end < 0) return;
      child.stdout!.off('data', onData);
      status = 200;
      let reason: string | undefined;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') {
          status = Number(value.slice(0, 3));
          reason = value.slice(4) || undefined;
        } else headers[name] = value;
      }
      res.writeHead(status, reason, headers);
      res.write(head.subarray(end));
      child.stdout!.pipe(res);
    };
    child.stdout!.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (status === 0) {
        res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end(`git http-backend exited ${code}: ${Buffer.concat(stderr).toString()}`);
        resolve(502);
      } else resolve(status);
    });
  });
}

/** The authenticated user name, or undefined when the header does not match. */
function authenticate(auth: GitServerAuth, header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(/\s+/, 2);
  if ('token' in auth && scheme?.toLowerCase() === 'bearer')
    return value === auth.token ? 'token' : undefined;
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const [user, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if ('token' in auth) return pass === auth.token && user ? user : undefined;
  return user === auth.username && pass === auth.password ? user : undefined;
}
