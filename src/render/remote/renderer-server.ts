// `groundwork renderer`: render requests over HTTP, in a pod that holds nothing to steal.
import { once } from 'node:events';
import { mkdir, realpath, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot } from '../../core/cache-root.js';
import { GroundworkError } from '../../core/errors.js';
import {
  RENDER_PATH,
  REMOTE_REQUEST_MAX_MB,
  remoteRequestSchema,
  type RemoteAnswer,
} from './remote-request.js';
import { renderRequest } from './render-request.js';

/** How a renderer serves. */
export interface RendererServerOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0: a free port. */
  readonly port: number;
  /** The largest request body read (bytes). @default REMOTE_REQUEST_MAX_MB MiB */
  readonly maxRequestBytes?: number;
  /** Reading a request's body must finish within this long. @default 120_000 */
  readonly readTimeoutMs?: number;
  /** Requests waiting behind the one rendering; more are answered 503. @default 4 */
  readonly queue?: number;
  /** Where requests are written (`<workDir>/<domain>`). @default `<tmpdir>/groundwork-renderer` */
  readonly workDir?: string;
  /** One line per render and per refusal. @default none */
  readonly log?: (line: string) => void;
}

/**
 * Serves `POST /v1/render` (a `remoteRequestSchema` body, at most `maxRequestBytes`) and
 * `GET /healthz`. Renders one request at a time (`renderRequest`: written into the domain's work
 * directory, rendered under this machine's isolation, `pod` in the renderer pod), up to `queue`
 * waiting; answers `remoteAnswerSchema` JSON: 200 with the render's end, 400/413/503 with
 * `refused` (a body that is not a request, too large, the queue full, isolation unavailable). It
 * holds no credential and needs none: who may connect is the NetworkPolicy's to say.
 */
export async function serveRenderer(
  opts: RendererServerOptions,
): Promise<{ port: number; close(): Promise<void> }> {
  const maxBytes = opts.maxRequestBytes ?? REMOTE_REQUEST_MAX_MB * 1024 * 1024;
  const workDir = opts.workDir ?? join(tmpdir(), 'groundwork-renderer');
  const log = opts.log ?? (() => {});
  let chain: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  const send = (res: ServerResponse, status: number, answer: RemoteAnswer | { ok: true }) => {
    const body = JSON.stringify(answer);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/healthz') return send(res, 200, { ok: true });
    if (req.method !== 'POST' || req.url !== RENDER_PATH) return send(res, 404, { refused: 'not found' });
    if (Number(req.headers['content-length'] ?? 0) > maxBytes)
      return send(res, 413, { refused: `the request is larger than ${maxBytes} bytes` });
    if (waiting >= (opts.queue ?? 4)) return send(res, 503, { refused: 'the renderer is busy' });
    req.setTimeout(opts.readTimeoutMs ?? 120_000, () => req.destroy());
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return send(res, 413, { refused: `the request is larger than ${maxBytes} bytes` });
      chunks.push(chunk);
    }
    let parsed;
    try {
      parsed = remoteRequestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) return send(res, 400, { refused: 'the body is not a render request' });
    const request = parsed.data;
    waiting++;
    const turn = chain.then(async () => {
      waiting--;
      const dir = join(workDir, request.domain);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const started = Date.now();
      try {
        return await renderRequest(request, {
          workDir: await realpath(dir),
          cacheDir: join(cacheRoot(), 'render', request.domain),
        });
      } finally {
        log(`rendered a ${request.domain} request in ${Date.now() - started} ms`);
      }
    });
    chain = turn.catch(() => {});
    try {
      send(res, 200, await turn);
    } catch (err) {
      const message = err instanceof GroundworkError || err instanceof Error ? err.message : String(err);
      log(`refused a render: ${message}`);
      send(res, 503, { refused: message.slice(0, 4000) });
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(opts.port, opts.host ?? '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
