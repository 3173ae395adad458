import type { ClientChannel } from 'ssh2';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { FetchFailedError } from '../source-errors.js';
import { FLUSH_PKT, PktLineError, PktReader, pktLine } from './pkt-reader.js';
import { openSsh, type SshSession } from './ssh-session.js';
import type { SshCredentials } from './ssh-credentials.js';
import { uploadPackCommand, type GitService, type SshRepoUrl } from './ssh-url.js';

/** Bounds of one SSH fetch. */
export interface SshLimits {
  /** TCP connect, key exchange and login together. @default 20000 */
  readonly connectTimeoutMs: number;
  /** The reference advertisement (every ref the server shows). @default 32 MiB */
  readonly maxAdvertisementBytes: number;
  /** One upload-pack answer (acknowledgements and the pack). @default 1 GiB */
  readonly maxResponseBytes: number;
  /** One request (wants and haves). @default 16 MiB */
  readonly maxRequestBytes: number;
}

export const SSH_LIMITS: SshLimits = {
  connectTimeoutMs: 20_000,
  maxAdvertisementBytes: 32 * 1024 * 1024,
  maxResponseBytes: 1024 * 1024 * 1024,
  maxRequestBytes: 16 * 1024 * 1024,
};

/** The URL isomorphic-git is given for an SSH remote: it speaks smart HTTP only, and this client answers it. */
export const SSH_REMOTE_URL = 'https://ssh-remote.groundwork.invalid/repository';

/** What stderr of the remote command is kept for a message. */
const MAX_STDERR_BYTES = 16 * 1024;

/** An isomorphic-git `HttpClient` that fetches over SSH, for `SSH_REMOTE_URL`; `close()` ends the connection. */
export interface SshTransport {
  readonly http: HttpClient;
  close(): void;
}

/**
 * Fetches from an SSH git remote through isomorphic-git's smart-HTTP client, by answering its two
 * requests the way `git http-backend` would: `GET …/info/refs?service=git-upload-pack` runs
 * `git-upload-pack '<path>'` in an exec channel, reads the reference advertisement (to its
 * flush-pkt), tells the server it wants nothing, and answers with the advertisement behind the
 * `# service=git-upload-pack` line; `POST …/git-upload-pack` runs a new `git-upload-pack`, skips
 * its advertisement, writes the request, closes stdin and streams the answer. The two agree byte
 * for byte because upload-pack answers a request that ends in `done` the same way with and
 * without `--stateless-rpc`. With `push` (promotions), `git-receive-pack` is run the same way for
 * isomorphic-git's push requests; without it, nothing but fetches is served.
 *
 * One SSH connection (opened at the first request, see `openSsh`) carries every request of the
 * fetch. Bounded by `limits`; the request's `signal` cuts the connection. An `ERR` line or a
 * failing `git-upload-pack` (a wrong path: its stderr, cut and stripped of control characters)
 * is `FetchFailed`.
 */
export function sshTransport(
  target: SshRepoUrl,
  credentials: SshCredentials | undefined,
  limits: Partial<SshLimits> = {},
  opts: { push?: boolean } = {},
): SshTransport {
  const services: readonly GitService[] = opts.push
    ? ['git-upload-pack', 'git-receive-pack']
    : ['git-upload-pack'];
  const bounds = { ...SSH_LIMITS, ...limits };
  let session: Promise<SshSession> | undefined;
  let closed = false;
  /** The connection, opened again when the last one closed or failed (a long-lived PromotionRepo). */
  const connect = async (signal: AbortSignal | undefined): Promise<SshSession> => {
    const current = session && (await session.catch(() => undefined));
    if (current?.alive) return current;
    session = openSsh({
      target,
      credentials,
      connectTimeoutMs: bounds.connectTimeoutMs,
      ...(signal ? { signal } : {}),
    });
    return session;
  };
  const failed = (detail: string) => new FetchFailedError(target.url, detail);

  const run = async (
    req: GitHttpRequest,
    service: GitService,
  ): Promise<{
    channel: ClientChannel;
    reader: PktReader;
    stderr: () => string;
    exit: Promise<number | undefined>;
  }> => {
    if (closed) throw failed('the SSH transport is closed');
    const ssh = await connect(req.signal as AbortSignal | undefined);
    const channel = await ssh.exec(uploadPackCommand(target.path, service));
    const cut = () => channel.destroy();
    (req.signal as AbortSignal | undefined)?.addEventListener('abort', cut, { once: true });
    const errors: Buffer[] = [];
    let errorBytes = 0;
    channel.stderr.on('data', (c: Buffer) => {
      if (errorBytes < MAX_STDERR_BYTES) errors.push(c.subarray(0, MAX_STDERR_BYTES - errorBytes));
      errorBytes += c.length;
    });
    const exit = new Promise<number | undefined>((resolve) => {
      channel.once('exit', (code: number | null) => resolve(code ?? undefined));
      channel.once('close', () => resolve(undefined));
    });
    const stderr = () => serverText(Buffer.concat(errors));
    return { channel, reader: new PktReader(channel[Symbol.asyncIterator]()), stderr, exit };
  };

  /** The advertisement, or the error that stopped it (the server's stderr when it said why). */
  const advertisement = async (call: Awaited<ReturnType<typeof run>>): Promise<Buffer> => {
    try {
      return await call.reader.untilFlush(bounds.maxAdvertisementBytes);
    } catch (err) {
      call.channel.destroy();
      if (!(err instanceof PktLineError)) throw err;
      const said = call.stderr();
      if (err.kind === 'truncated' && said) throw failed(`git failed on the server: ${said}`);
      if (err.kind === 'server-error')
        throw failed(`the server refused: ${serverText(Buffer.from(err.message))}`);
      throw failed(`${err.message}${said ? ` (${said})` : ''}`);
    }
  };

  const request = async (req: GitHttpRequest): Promise<GitHttpResponse> => {
    const path = req.url.startsWith(SSH_REMOTE_URL) ? req.url.slice(SSH_REMOTE_URL.length) : undefined;
    const answer = (contentType: string, body: AsyncIterableIterator<Uint8Array>): GitHttpResponse => ({
      url: req.url,
      method: req.method ?? 'GET',
      statusCode: 200,
      statusMessage: 'OK',
      headers: { 'content-type': contentType },
      body,
    });
    for (const service of services) {
      if ((req.method ?? 'GET') === 'GET' && path === `/info/refs?service=${service}`) {
        const call = await run(req, service);
        const refs = await advertisement(call);
        call.channel.end(FLUSH_PKT); // asks for nothing: the service exits
        const head = Buffer.concat([pktLine(`# service=${service}\n`), FLUSH_PKT, refs]);
        return answer(`application/x-${service}-advertisement`, once(head));
      }
      if (req.method === 'POST' && path === `/${service}`) {
        const body = await collect(req.body, bounds.maxRequestBytes, failed);
        const call = await run(req, service);
        await advertisement(call);
        call.channel.end(body);
        return answer(`application/x-${service}-result`, streamed(call));
      }
    }
    throw failed(
      `the SSH transport serves ${services.join(' and ')} only; refused ${req.method ?? 'GET'} ${path ?? req.url}`,
    );
  };

  /** The answer as it arrives, bounded; a non-zero exit with nothing more to say is an error at the end. */
  async function* streamed(call: Awaited<ReturnType<typeof run>>): AsyncGenerator<Uint8Array> {
    try {
      yield* call.reader.rest(bounds.maxResponseBytes);
    } catch (err) {
      call.channel.destroy();
      throw err instanceof PktLineError ? failed(err.message) : err;
    }
    const code = await Promise.race([
      call.exit,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 5_000).unref()),
    ]);
    if (code !== undefined && code !== 0)
      throw failed(`git exited ${code} on the server${call.stderr() ? `: ${call.stderr()}` : ''}`);
  }

  return {
    http: { request },
    close: () => {
      closed = true;
      void session?.then((s) => s.close()).catch(() => {});
    },
  };
}

async function* once(chunk: Buffer): AsyncGenerator<Uint8Array> {
  yield chunk;
}

async function collect(
  body: GitHttpRequest['body'],
  max: number,
  failed: (detail: string) => Error,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > max) throw failed(`a request larger than ${max} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** Text from the server for a message: control characters dropped, at most 300 characters. */
function serverText(bytes: Buffer): string {
  const text = bytes
    .toString('utf8')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
