import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

/** Debian's `git http-backend` (looked up lazily: importing this module needs no git). */
let backend: string | undefined;
function backendPath(): string {
  return (backend ??= join(
    execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(),
    'git-http-backend',
  ));
}

/** One request for `git http-backend`: which repository root, which path in it, which git config. */
export interface CgiRequest {
  /** `GIT_PROJECT_ROOT`: a directory of repositories, or one repository's git dir. */
  readonly projectRoot: string;
  /** `PATH_INFO`, decoded: the repository under the root and the endpoint (`/p.git/info/refs`, `/info/refs`). */
  readonly pathInfo: string;
  /** `git -c` settings for this request (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`). */
  readonly config: readonly (readonly [string, string])[];
  readonly user: string;
}

/**
 * Runs `git http-backend` as a CGI for `req` (what Apache or nginx with fcgiwrap do), with no
 * system or global git config, feeds it the request body and relays its answer; resolves with the
 * status sent. The child is tracked in `children` (and killed when the client goes away).
 */
export async function runGitBackend(
  cgi: CgiRequest,
  req: IncomingMessage,
  res: ServerResponse,
  children: Set<ChildProcess>,
): Promise<number> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const child = spawn(backendPath(), [], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cgi.projectRoot,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_COUNT: String(cgi.config.length),
      ...Object.fromEntries(
        cgi.config.flatMap(([key, value], i) => [
          [`GIT_CONFIG_KEY_${i}`, key],
          [`GIT_CONFIG_VALUE_${i}`, value],
        ]),
      ),
      GIT_PROJECT_ROOT: cgi.projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      SERVER_SOFTWARE: 'groundwork-git-server',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: cgi.pathInfo,
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      REMOTE_USER: cgi.user,
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
