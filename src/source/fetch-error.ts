import { GroundworkError } from '../core/errors.js';
import { redact, type GitAuth } from './credentials.js';
import {
  AuthFailedError,
  FetchFailedError,
  FetchTimeoutError,
  RemoteRevisionNotFoundError,
} from './source-errors.js';

/**
 * Splits a clone URL into the URL without userinfo (what messages, the cache's config and the
 * requests use) and the credentials: `auth` when given, else the URL's decoded userinfo.
 */
export function scrubUrl(url: string, auth: GitAuth | undefined): { url: string; auth: GitAuth | undefined } {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@(.*)$/i.exec(url);
  if (!match) return { url, auth };
  const clean = `${match[1]}${match[3]}`;
  if (auth) return { url: clean, auth };
  const [user = '', ...rest] = match[2]!.split(':');
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const password = decode(rest.join(':'));
  const username = decode(user);
  // `https://<token>@host/…` (GitHub's documented form) carries a token as the user name.
  return { url: clean, auth: password ? { username, password } : username ? { token: username } : undefined };
}

interface FetchErrorContext {
  /** The URL without userinfo. */
  readonly url: string;
  readonly auth: GitAuth | undefined;
  readonly remoteRef: string;
  /** The timeout fired (the abort may surface as any network error). */
  readonly timedOut: boolean;
  readonly timeoutMs: number;
}

/**
 * Turns whatever isomorphic-git, the HTTP client or node threw into a Groundwork error, with a
 * message and a `cause` scrubbed of credentials. The original error is not kept: its fields (a
 * request, headers, a response body) could hold a secret.
 */
export function fetchError(err: unknown, ctx: FetchErrorContext): GroundworkError {
  if (err instanceof GroundworkError) return err; // ours: built from scrubbed parts
  if (ctx.timedOut) return new FetchTimeoutError(ctx.url, ctx.timeoutMs);
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: string;
    name?: string;
    message?: string;
    data?: { statusCode?: number; statusMessage?: string; what?: string };
  };
  const cause = scrubbedCause(err, ctx.auth);
  const code = e.code ?? e.name;
  if (code === 'HttpError' && typeof e.data?.statusCode === 'number') {
    const status = e.data.statusCode;
    if (status === 401 || status === 403)
      return new AuthFailedError(ctx.url, status, ctx.auth !== undefined, cause);
    const detail = redact(`HTTP ${status} ${e.data.statusMessage ?? ''}`.trim(), ctx.auth);
    return new FetchFailedError(ctx.url, detail, { statusCode: status, cause });
  }
  if (code === 'UserCanceledError') return new AuthFailedError(ctx.url, 401, ctx.auth !== undefined, cause);
  if (code === 'NotFoundError' && e.data?.what === ctx.remoteRef)
    return new RemoteRevisionNotFoundError(ctx.remoteRef, `no such ref on ${ctx.url}`, cause);
  if (code === 'SmartHttpError')
    return new FetchFailedError(
      ctx.url,
      'not a git smart-HTTP server (a dumb HTTP server or an HTML page?)',
      { cause },
    );
  if (code === 'RemoteCapabilityError')
    return new FetchFailedError(ctx.url, 'the server does not support shallow fetches', { cause });
  const message = redact(e.message ?? String(err), ctx.auth);
  return new FetchFailedError(ctx.url, code && !message.includes(code) ? `${code}: ${message}` : message, {
    cause,
  });
}

/** A plain Error with the original's name, code, status and redacted message and stack. */
function scrubbedCause(err: unknown, auth: GitAuth | undefined): Error {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    name?: string;
    code?: string;
    message?: string;
    stack?: string;
    data?: { statusCode?: number };
  };
  const scrubbed = new Error(redact(e.message ?? String(err), auth));
  scrubbed.name = e.name ?? 'Error';
  scrubbed.stack = e.stack === undefined ? undefined : redact(e.stack, auth);
  return Object.assign(scrubbed, {
    ...(e.code !== undefined && { code: e.code }),
    ...(typeof e.data?.statusCode === 'number' && { statusCode: e.data.statusCode }),
  });
}
