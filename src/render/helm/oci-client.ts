// GETs from an OCI registry without credentials: the anonymous bearer-token challenge, redirects
// followed by hand (an Authorization header never leaves the registry's origin), caps and timeouts.
import { z } from 'zod';
import { parseChallenge, realmProblem, tokenUrl } from './oci-auth.js';
import { checkedFetch } from '../../core/checked-fetch.js';
import { outboundPolicy, type OutboundPolicy } from '../../core/outbound-url.js';
import { isLoopbackHost, type OciChartRef } from './oci-reference.js';

/** Bounds of one registry conversation. */
export interface OciLimits {
  /** Per request (token, manifest or blob, redirects included). @default 60 s */
  readonly timeoutMs: number;
  /** Redirects followed per request. @default 5 */
  readonly maxRedirects: number;
}

export const OCI_LIMITS: OciLimits = { timeoutMs: 60_000, maxRedirects: 5 };

/** The largest token response read. */
const TOKEN_MAX = 64 * 1024;

const tokenSchema = z.union([
  z.object({ token: z.string().min(1).max(16_384) }).transform((t) => t.token),
  z.object({ access_token: z.string().min(1).max(16_384) }).transform((t) => t.access_token),
]);

/** A failure talking to the registry; its message never holds a response body. */
export class OciFetchError extends Error {
  constructor(
    message: string,
    /** The HTTP status that ended it, if one did (404: not in the registry). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** What a GET returned: the bytes (at most the cap) and the response's media type. */
export interface OciResponse {
  readonly bytes: Buffer;
  readonly contentType: string;
  /** The `Link` header (a paged list's next page), as the registry sent it: data, not a URL. */
  readonly link: string | null;
}

/**
 * One repository of one registry, read anonymously. `get` answers a `401` with a `Bearer`
 * challenge by asking the challenge's realm for a token without credentials (`realmProblem`
 * decides which realms may be asked) and retrying once with it; the token is kept for this
 * repository's later requests and sent only to the registry's own origin, never on a redirect to
 * another host (blob storage). A `Basic` challenge, or a `401` with a token, is "needs
 * credentials". Plain `http:` only to loopback, at every hop; every hop (the token realm too)
 * goes through `checkedFetch`, so no hop reaches a loopback (unless this process allows it),
 * link-local or metadata address, however its host resolves. Does not read any credential store
 * (`~/.docker/config.json`, helm's registry config): an expired login cannot break a public pull.
 */
export class OciRepositoryClient {
  private token: string | undefined;
  private readonly origin: string;

  constructor(
    readonly ref: OciChartRef,
    private readonly limits: OciLimits = OCI_LIMITS,
    /**
     * Where a hop may go. @default `outboundPolicy()`: loopback only where this process allows
     * it (GROUNDWORK_ALLOW_LOOPBACK_URLS: tests, a local registry), as the repository names the registry.
     */
    private readonly policy: OutboundPolicy = outboundPolicy(),
  ) {
    this.origin = `${ref.scheme}//${ref.registry}`;
  }

  /**
   * GET `path` (under `/v2/<repository>/`, e.g. `manifests/1.0.0`) with `accept`, reading at most
   * `maxBytes`. Throws `OciFetchError` for any status but 2xx after the challenge and redirects.
   */
  async get(path: string, opts: { accept: string; maxBytes: number; what: string }): Promise<OciResponse> {
    const url = new URL(`/v2/${this.ref.repository}/${path}`, this.origin);
    let response = await this.follow(url, opts.accept, opts.what);
    if (response.status === 401 && this.token === undefined) {
      await response.body?.cancel();
      this.token = await this.anonymousToken(response.headers.get('www-authenticate'));
      response = await this.follow(url, opts.accept, opts.what);
    }
    if (response.status === 401) {
      await response.body?.cancel();
      throw new OciFetchError(
        `the registry refused anonymous access to ${this.ref.repository} (HTTP 401): the repository is private or does not exist`,
        401,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new OciFetchError(`${opts.what}: HTTP ${response.status}`, response.status);
    }
    const bytes = await readCapped(response, opts.maxBytes, opts.what);
    return {
      bytes,
      contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim(),
      link: response.headers.get('link'),
    };
  }

  /** One GET with its redirects followed by hand: each hop checked, the token only on our origin. */
  private async follow(start: URL, accept: string, what: string): Promise<Response> {
    let url = start;
    for (let hop = 0; ; hop++) {
      checkHop(url, what);
      const headers: Record<string, string> = { accept, 'user-agent': 'groundwork' };
      if (this.token !== undefined && url.origin === this.origin)
        headers.authorization = `Bearer ${this.token}`;
      // Each hop resolved and checked (no loopback unless allowed, link-local or metadata address).
      const response = await checkedFetch(url, {
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.limits.timeoutMs),
        policy: this.policy,
      }).catch((err: unknown) => {
        throw new OciFetchError(`${what}: ${url.host} cannot be reached (${causeOf(err)})`);
      });
      if (![301, 302, 303, 307, 308].includes(response.status)) return response;
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location) throw new OciFetchError(`${what}: a redirect without a location`);
      if (hop >= this.limits.maxRedirects)
        throw new OciFetchError(`${what}: more than ${this.limits.maxRedirects} redirects`);
      url = new URL(location, url);
    }
  }

  /** Answers a challenge: a token from an allowed realm, asked without credentials. */
  private async anonymousToken(header: string | null): Promise<string> {
    const challenge = parseChallenge(header);
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm)
      throw new OciFetchError(
        `the registry asks for credentials (${challenge ? `${challenge.scheme} authentication` : 'HTTP 401 without a challenge'}); Groundwork pulls public charts anonymously`,
        401,
      );
    const problem = realmProblem(challenge.params.realm, this.ref.registry);
    if (problem) throw new OciFetchError(`the registry's bearer challenge is refused: ${problem}`, 401);
    const url = tokenUrl(challenge, this.ref.repository);
    const response = await checkedFetch(url, {
      headers: { accept: 'application/json', 'user-agent': 'groundwork' },
      redirect: 'error',
      signal: AbortSignal.timeout(this.limits.timeoutMs),
      policy: this.policy,
    }).catch((err: unknown) => {
      throw new OciFetchError(`the token realm ${url.host} cannot be reached (${causeOf(err)})`);
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new OciFetchError(
        `the registry refused an anonymous token for ${this.ref.repository} (HTTP ${response.status} from ${url.host}): the repository is private or does not exist`,
        response.status,
      );
    }
    let parsed;
    try {
      parsed = tokenSchema.safeParse(JSON.parse((await readCapped(response, TOKEN_MAX, 'token')).toString()));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success)
      throw new OciFetchError(`the token realm ${url.host} answered no token (not {"token": ...} JSON)`);
    return parsed.data;
  }
}

/** `http:` only to loopback, `https:` anywhere; nothing else, and no credentials in the URL. */
function checkHop(url: URL, what: string): void {
  if (url.username || url.password)
    throw new OciFetchError(`${what}: a URL with credentials is not followed`);
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw new OciFetchError(
    `${what}: ${url.protocol.replace(/:$/, '')}://${url.host} is not followed (https only; plain http on loopback)`,
  );
}

/** The body, refusing (without reading on) one larger than `max` by its length or its bytes. */
async function readCapped(response: Response, max: number, what: string): Promise<Buffer> {
  const tooLarge = () => new OciFetchError(`${what}: larger than ${formatSize(max)}`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch((err: unknown) => {
      throw new OciFetchError(`${what}: the response broke off (${causeOf(err)})`);
    });
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;
}

/** The reason of a network failure (`ECONNREFUSED`, a timeout), without anything the peer sent. */
function causeOf(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timed out';
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : err instanceof Error ? err.message : String(err);
}
