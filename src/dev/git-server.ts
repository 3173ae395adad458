import type { ChildProcess } from 'node:child_process';
import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runGitBackend } from './git-cgi.js';

/** Credentials the server demands: Basic with exactly this pair, or a token as the Basic password (any user) or a Bearer token. */
export type GitServerAuth =
  { readonly username: string; readonly password: string } | { readonly token: string };

/** What a git server serves: every bare repository under a root, or one repository. */
export type GitServerOptions = (
  | {
      /** Directory holding the bare repositories (`<root>/<name>.git`); each is served as `/<name>.git`. */
      readonly root: string;
    }
  | {
      /** One repository: its git dir (a work tree's `.git`, or a bare repository), served as `/<name>`. */
      readonly repository: { readonly name: string; readonly gitDir: string };
    }
) & {
  /** When set, every request without matching credentials is answered 401. @default none: anonymous */
  readonly auth?: GitServerAuth;
  /**
   * Fetch only: the two smart-HTTP upload-pack endpoints and nothing else (no push, no dumb-HTTP
   * files: 404), and only branches and tags advertised. @default false (fetch and push)
   */
  readonly readOnly?: boolean;
  /** The port on 127.0.0.1. @default 0 (a free one) */
  readonly port?: number;
};

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

/**
 * A local git smart-HTTP server, used by the quick start (serving this repository to the agent),
 * `groundwork git serve` (one repository, read-only, behind a token) and the tests. Serves every
 * bare repository under `root`, or one `repository`, over git's smart-HTTP protocol: a small
 * node:http front on 127.0.0.1 (`port`, else a free one) runs Debian's `git http-backend` as a CGI
 * per request (`git-cgi.ts`), the way Apache or nginx+fcgiwrap would. Fetch and push
 * (`http.receivepack` is enabled) both work, with the real git CLI and with isomorphic-git, unless
 * `readOnly`. A path with a `..` segment is 404.
 *
 * @example
 * const server = await startGitServer({ root, auth: { token: 's3cret' } });
 * git clone server.url('platform.git')
 */
export async function startGitServer(opts: GitServerOptions): Promise<GitServer> {
  const children = new Set<ChildProcess>();
  const requests: string[] = [];
  let server: Server | undefined;
  let port = opts.port ?? 0;

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
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="groundwork"', 'Content-Type': 'text/plain' });
    res.end('authentication required\n');
    return 401;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = '';
  }
  const target = route(opts, path);
  if (!target || (opts.readOnly && !isFetch(req.method, target.pathInfo, url.search))) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end(opts.readOnly ? 'not found (this server serves fetches only)\n' : 'not found\n');
    return 404;
  }
  return runGitBackend(
    { ...target, user, config: opts.readOnly ? READ_ONLY_CONFIG : [['http.receivepack', 'true']] },
    req,
    res,
    children,
  );
}

/**
 * Read-only: receive-pack off (http-backend answers 403), and only branches and tags advertised
 * (`uploadPack.hideRefs`, the last match wins): no remote-tracking refs, stash or notes of a work
 * tree, and no object reachable only from them can be asked for.
 */
const READ_ONLY_CONFIG: readonly (readonly [string, string])[] = [
  ['http.receivepack', 'false'],
  ['uploadpack.hideRefs', 'refs/'],
  ['uploadpack.hideRefs', '!refs/heads/'],
  ['uploadpack.hideRefs', '!refs/tags/'],
];

/** The backend's root and path for a request path; undefined outside what is served (or with `..`). */
function route(opts: GitServerOptions, path: string): { projectRoot: string; pathInfo: string } | undefined {
  if (path.split('/').includes('..') || path.includes('\0')) return undefined;
  if (!('repository' in opts)) return { projectRoot: opts.root, pathInfo: path };
  const prefix = `/${opts.repository.name}/`;
  return path.startsWith(prefix)
    ? { projectRoot: opts.repository.gitDir, pathInfo: path.slice(prefix.length - 1) }
    : undefined;
}

/** The two smart-HTTP fetch endpoints: the upload-pack advertisement and upload-pack itself. */
function isFetch(method: string | undefined, pathInfo: string, search: string): boolean {
  if (method === 'GET') return pathInfo.endsWith('/info/refs') && search === '?service=git-upload-pack';
  return method === 'POST' && pathInfo.endsWith('/git-upload-pack') && search === '';
}

/** The authenticated user name, or undefined when the header does not match. */
function authenticate(auth: GitServerAuth, header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(/\s+/, 2);
  if ('token' in auth && scheme?.toLowerCase() === 'bearer')
    return same(value, auth.token) ? 'token' : undefined;
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const [user, pass] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if ('token' in auth) return same(pass, auth.token) && user ? user : undefined;
  return user === auth.username && same(pass, auth.password) ? user : undefined;
}

/** Compares a secret in constant time (for equal lengths). */
function same(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}
