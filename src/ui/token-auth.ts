import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthOutcome, DashboardAuth } from './dashboard-handler.js';

/** A fresh dashboard token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality of two strings (both hashed first, so their lengths leak nothing either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * The laptop dashboard's check, as Jupyter's: the URL printed at start carries `?token=…` once;
 * that request is answered with a redirect to the same page without it and an `HttpOnly`,
 * `SameSite=Strict` session cookie named after the port (cookies are shared across a host's
 * ports), which later requests carry. `Authorization: token <t>` works too (curl). Every
 * comparison is constant-time. The `Host` header must be the loopback address the server bound
 * (or `localhost`) on its port, so a DNS-rebinding page on another site cannot read it through the
 * browser. Whoever holds the token is the one reader (`session:<hash>`, for per-reader limits); it
 * decides nothing about what a page shows (the caches hold what the user's kubeconfig may list).
 */
export function tokenAuth(opts: { token: string; port: () => number }): DashboardAuth {
  const cookieName = () => `groundwork-ui-${opts.port()}`;
  const reader = { key: `session:${createHash('sha256').update(opts.token).digest('hex').slice(0, 16)}` };
  return {
    check(req: IncomingMessage): Promise<AuthOutcome> {
      return Promise.resolve(check(req));
    },
  };
  function check(req: IncomingMessage): AuthOutcome {
    const port = opts.port();
    const host = req.headers.host ?? '';
    if (![`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase()))
      return {
        ok: false,
        status: 403,
        reason: 'unexpected Host header (open the URL groundwork ui printed)',
      };
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const fromQuery = url.searchParams.get('token');
    if (fromQuery !== null) {
      if (!sameSecret(fromQuery, opts.token)) return { ok: false, status: 403, reason: 'wrong token' };
      url.searchParams.delete('token');
      return {
        ok: 'redirect',
        location: `${url.pathname}${url.search}`,
        setCookie: `${cookieName()}=${opts.token}; HttpOnly; SameSite=Strict; Path=/`,
      };
    }
    const header = req.headers.authorization;
    const fromHeader = header?.match(/^token\s+(\S+)$/i)?.[1];
    const fromCookie = cookieValue(req.headers.cookie, cookieName());
    const given = fromHeader ?? fromCookie;
    if (given === undefined)
      return { ok: false, status: 401, reason: 'no token: open the URL groundwork ui printed' };
    return sameSecret(given, opts.token)
      ? { ok: true, reader }
      : { ok: false, status: 403, reason: 'wrong token' };
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
