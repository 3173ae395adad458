// The one HTTP client for URLs from repository content or configuration: each hop's address
// checked after resolution and connected to as checked.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { GroundworkError } from './errors.js';
import { checkedAddress, outboundPolicy, type OutboundPolicy, type ResolvedAddress } from './outbound-url.js';

/** A request through `checkedFetch`. */
export interface CheckedRequest {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'PUT';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /**
   * `manual`: a 3xx is returned as it is (a caller that follows by hand calls again per hop);
   * `follow`: each hop is checked like the first, at most `maxRedirects`; `error`: a 3xx throws.
   */
  readonly redirect: 'manual' | 'follow' | 'error';
  /** @default 5 */
  readonly maxRedirects?: number;
  /** @default `outboundPolicy()` */
  readonly policy?: OutboundPolicy;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * GET, POST, PATCH or PUT `url` like `fetch`, but only to an address `checkedAddress` allows: the host is
 * resolved once, every address checked (IPv4-mapped, NAT64, 6to4 and Teredo forms of an IPv4
 * address classed by it), and the socket connects to the checked address (a pinned `lookup`:
 * no second resolution that could answer otherwise). Redirects per `req.redirect`; a followed
 * hop is checked again, and an `authorization` or `cookie` header is not sent to another origin.
 * Resolves with a web `Response` (the body streamed); rejects with `UrlNotAllowed` before any
 * connection to a refused address, or with the network error.
 */
export async function checkedFetch(url: string | URL, req: CheckedRequest): Promise<Response> {
  const policy = req.policy ?? outboundPolicy();
  const max = req.maxRedirects ?? 5;
  let current = new URL(url);
  let method: string = req.method ?? 'GET';
  let body = req.body;
  let headers = { ...req.headers };
  for (let hop = 0; ; hop++) {
    const address = await checkedAddress(current, policy);
    const res = await send(current, address, { method, headers, body, signal: req.signal });
    if (!REDIRECTS.has(res.statusCode ?? 0) || req.redirect === 'manual') return toResponse(res);
    res.resume();
    if (req.redirect === 'error' || hop >= max)
      throw new GroundworkError({
        code: 'UrlNotAllowed',
        subject: `host ${current.host}`,
        message:
          req.redirect === 'error'
            ? 'answered with a redirect, which is not followed'
            : `more than ${max} redirects`,
        fix: 'use the final URL itself',
      });
    const location = res.headers.location;
    if (!location) throw new Error(`${current.host} answered a redirect without a location`);
    const next = new URL(location, current);
    if (next.origin !== current.origin) {
      const { authorization: _a, cookie: _c, ...kept } = headers;
      headers = kept;
    }
    // 303, and 301/302 after a POST, continue as a GET without the body (as fetch does).
    if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
      method = 'GET';
      body = undefined;
    }
    current = next;
  }
}

function send(
  url: URL,
  address: ResolvedAddress,
  opts: { method: string; headers: Record<string, string>; body: string | undefined; signal?: AbortSignal },
): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'user-agent': 'groundwork', ...opts.headers };
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const signal = opts.signal;
    const req = request(url, { method: opts.method, headers, lookup, agent: false }, (res) => {
      // The signal's own reason (a TimeoutError for AbortSignal.timeout) ends the body too.
      signal?.addEventListener('abort', () => res.destroy(signal.reason as Error), { once: true });
      resolve(res);
    });
    if (signal?.aborted) req.destroy(signal.reason as Error);
    signal?.addEventListener('abort', () => req.destroy(signal.reason as Error), { once: true });
    req.on('error', reject);
    req.end(opts.body);
  });
}

function toResponse(res: IncomingMessage): Response {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers))
    for (const value of Array.isArray(v) ? v : v === undefined ? [] : [v]) headers.append(k, value);
  if (status < 200 || status > 599) {
    res.destroy();
    throw new Error(`the server answered status ${status}`);
  }
  if (NO_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, headers });
}
