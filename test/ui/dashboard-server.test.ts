import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboardServer, type RunningDashboard } from '../../src/ui/dashboard-server.js';
import { sameSecret } from '../../src/ui/token-auth.js';
import { hostileSnapshot } from './fixtures.js';

const TOKEN = 'a'.repeat(43);

describe('the laptop dashboard server (127.0.0.1, token, cookie)', () => {
  let server: RunningDashboard;
  const listeners = new Set<() => void>();
  beforeAll(async () => {
    server = await startDashboardServer({
      token: TOKEN,
      source: {
        snapshot: hostileSnapshot,
        detail: () => undefined,
        onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
      },
    });
  });
  afterAll(() => server.close());
  const base = () => `http://127.0.0.1:${server.port}`;

  it('prints a URL on 127.0.0.1 with the token', () => {
    expect(server.url).toBe(`${base()}/?token=${TOKEN}`);
  });

  it('refuses a request without a token (401) and with a wrong one (403)', async () => {
    expect((await fetch(`${base()}/`)).status).toBe(401);
    expect((await fetch(`${base()}/static/app.js`)).status).toBe(401);
    expect((await fetch(`${base()}/?token=${'b'.repeat(43)}`, { redirect: 'manual' })).status).toBe(403);
    const res = await fetch(`${base()}/`, { headers: { cookie: `groundwork-ui-${server.port}=wrong` } });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('trades the token in the URL for an HttpOnly SameSite=Strict cookie and a redirect without it', async () => {
    const res = await fetch(`${base()}/drift?token=${TOKEN}&x=1`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/drift?x=1');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await fetch(`${base()}/drift`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('<h1>Drift</h1>');
  });

  it('lets the browser keep the stylesheet and script under a versioned URL, never a page', async () => {
    const auth = { authorization: `token ${TOKEN}` };
    const page = await fetch(`${base()}/objects`, { headers: auth });
    expect(page.headers.get('cache-control')).toBe('no-store');
    const urls = [
      ...(await page.text()).matchAll(/(?:href|src)="(\/static\/app\.(?:css|js)\?v=[0-9a-f]{12})"/g),
    ];
    expect(urls.map((u) => u[1]!.split('?')[0])).toEqual(['/static/app.css', '/static/app.js']);
    for (const [, url] of urls) {
      const res = await fetch(`${base()}${url}`, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    expect((await fetch(`${base()}${urls[0]![1]}`)).status).toBe(401);
  });

  it('refuses another Host (DNS rebinding) even with the token', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/',
          headers: { host: `evil.example:${server.port}`, authorization: `token ${TOKEN}` },
        },
        (res) => resolve(res.statusCode!),
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('is read-only: POST gets 405', async () => {
    const res = await fetch(`${base()}/`, { method: 'POST', headers: { authorization: `token ${TOKEN}` } });
    expect(res.status).toBe(405);
  });

  it('sends a change event on the stream when the source changes', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${base()}/events`, {
      headers: { authorization: `token ${TOKEN}` },
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('retry: 2000');
    for (const l of listeners) l();
    const next = new TextDecoder().decode((await reader.read()).value);
    expect(next).toContain('event: change');
    ctrl.abort();
  });

  it('lets the session (the token holder) hold 8 event streams, the ninth gets 429 with Retry-After', async () => {
    const ctrl = new AbortController();
    const open = () =>
      fetch(`${base()}/events`, { headers: { authorization: `token ${TOKEN}` }, signal: ctrl.signal });
    try {
      for (let i = 0; i < 8; i++) expect((await open()).status).toBe(200);
      const ninth = await open();
      expect(ninth.status).toBe(429);
      expect(ninth.headers.get('retry-after')).toBe('30');
    } finally {
      ctrl.abort();
    }
  });

  it('answers 404 for an object the inventory does not list, with the id escaped', async () => {
    const res = await fetch(`${base()}/objects/%3Cscript%3E`, {
      headers: { authorization: `token ${TOKEN}` },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('&lt;script&gt;');
  });
});

describe('sameSecret', () => {
  it('compares whole strings of any length', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'a')).toBe(false);
  });
});
