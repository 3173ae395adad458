// The agent's side of a renderer pod: the request packed from what the agent fetched, sent to the
// renderer's URL, its answer read back bounded and parsed.
import http from 'node:http';
import https from 'node:https';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { checkedAddress, outboundPolicy } from '../../core/outbound-url.js';
import { GroundworkError } from '../../core/errors.js';
import type { SupervisedExit } from '../sandbox/supervise.js';
import {
  RENDER_PATH,
  REMOTE_REQUEST_MAX_MB,
  remoteAnswerSchema,
  type RemoteRequest,
} from './remote-request.js';
import { readTree, tooLarge } from './tree-files.js';

/** What a request is packed from: the job's values, with the agent's own paths. */
export interface RemotePack extends Omit<RemoteRequest, 'tree' | 'dir' | 'libraries' | 'archives'> {
  /** The commit's tree, and the checkout in it (real paths). */
  readonly treeRoot: string;
  readonly dir: string;
  readonly libraryRoots: readonly string[];
  readonly archives: readonly { digest: string; path: string }[];
}

/**
 * The request for `pack`: the tree without `.git`, each library root's `node_modules`, the
 * archives' bytes. Throws
 * `RendererUnreachable` past `maxBytes` of file content (@default GROUNDWORK_RENDERER_REQUEST_MB,
 * else `REMOTE_REQUEST_MAX_MB` less a quarter for base64).
 */
export async function packRequest(pack: RemotePack, maxBytes = defaultMaxBytes()): Promise<RemoteRequest> {
  const budget = { used: 0, maxBytes };
  const tree = await readTree(pack.treeRoot, budget, new Set(['.git']));
  const libraries = [];
  for (const root of pack.libraryRoots)
    libraries.push(await readTree(join(root, 'node_modules'), budget).catch(() => []));
  const archives = [];
  for (const a of pack.archives) {
    const bytes = await readFile(a.path);
    budget.used += bytes.length;
    if (budget.used > budget.maxBytes) throw tooLarge(budget.maxBytes);
    archives.push({ digest: a.digest, data: bytes.toString('base64') });
  }
  const { treeRoot: _treeRoot, libraryRoots: _roots, ...rest } = pack;
  const dir = relative(pack.treeRoot, pack.dir).split(sep).join('/') || '.';
  return { ...rest, dir, tree, libraries, archives };
}

function defaultMaxBytes(): number {
  const mb = Number(process.env.GROUNDWORK_RENDERER_REQUEST_MB);
  return Math.floor((Number.isFinite(mb) && mb > 0 ? mb : REMOTE_REQUEST_MAX_MB) * 0.75 * 1024 * 1024);
}

/**
 * Sends `request` to the renderer at `url` (its host checked by `checkedAddress` and connected
 * to at that address: loopback only with GROUNDWORK_ALLOW_LOOPBACK_URLS=1) and resolves to how
 * its render ended, as a local launch reports it. The answer is read up to `frameCapBytes` (as
 * base64, with room for the log) and parsed (`remoteAnswerSchema`). Throws `RendererUnreachable`
 * when the renderer cannot be reached, answers an HTTP error, refuses, or answers something else,
 * or after `timeoutMs`; the message never quotes the URL beyond its host.
 */
export async function renderRemotely(
  url: string,
  request: RemoteRequest,
  opts: { timeoutMs: number; frameCapBytes: number },
): Promise<SupervisedExit & { dir: string }> {
  const base = new URL(url);
  const fail = (message: string, cause?: unknown) =>
    new GroundworkError({
      code: 'RendererUnreachable',
      subject: `renderer ${base.host}`,
      message: `${message}; nothing was rendered`,
      fix: "check the renderer pod and its Service, and that the agent may reach its port (its NetworkPolicy); --renderer must be the renderer Service's URL",
      ...(cause ? { cause } : {}),
    });
  const address = await checkedAddress(base, outboundPolicy()).catch((e: unknown) => {
    throw fail(e instanceof Error ? e.message : String(e), e);
  });
  const body = Buffer.from(JSON.stringify(request));
  const cap = Math.ceil((opts.frameCapBytes * 4) / 3) + 64 * 1024;
  const text = await new Promise<string>((resolve, reject) => {
    const client = base.protocol === 'https:' ? https : http;
    const req = client.request(
      new URL(RENDER_PATH, base),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        lookup: (_host, _o, cb) => cb(null, address.address, address.family),
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > cap) {
            req.destroy();
            reject(fail(`its answer is larger than ${Math.round(cap / 1024 / 1024)} MiB`));
          } else chunks.push(chunk);
        });
        res.on('end', () => {
          const answer = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) resolve(answer);
          else reject(fail(`it answered HTTP ${res.statusCode}: ${answer.slice(0, 300)}`));
        });
        res.on('error', (e) => reject(fail(`its answer broke off (${e.message})`, e)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs / 1000}s`)));
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(fail(`it cannot be reached (${e.code ?? e.message})`, e)),
    );
    req.end(body);
  });
  let parsed;
  try {
    parsed = remoteAnswerSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw fail('its answer is not a render answer');
  const answer = parsed.data;
  if ('refused' in answer) throw fail(`it refused the render: ${answer.refused}`);
  return {
    exit: { code: answer.exit.code, signal: answer.exit.signal as NodeJS.Signals | null },
    stopped: answer.stopped,
    frame: Buffer.from(answer.frame, 'base64'),
    log: answer.log,
    dir: answer.dir,
  };
}
