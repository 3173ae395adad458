import type { IncomingMessage, ServerResponse } from 'node:http';
import { APP_CSS, APP_JS, STATIC_CACHE_CONTROL } from './assets.js';
import type { Html } from './html.js';
import type { FleetReader } from './fleet-state.js';
import { driftPage } from './pages/drift.js';
import { fleetPage } from './pages/fleet.js';
import { historyPage } from './pages/history.js';
import { layout } from './pages/layout.js';
import { objectPage } from './pages/object.js';
import { objectsPage } from './pages/objects.js';
import { openshiftPage } from './pages/openshift.js';
import { overviewPage } from './pages/overview.js';
import { html } from './html.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { DashboardSnapshot, ObjectDetail } from './snapshot.js';

/** What the pages read: a snapshot, one object's detail, and change notices (`ClusterDashboardSource`). */
export interface DashboardReader {
  snapshot(): DashboardSnapshot;
  detail(id: string): ObjectDetail | undefined;
  onChange(listener: () => void): () => void;
}

/**
 * Whether a request may read the dashboard: yes (with the user, for logs), no (401 to ask for
 * credentials, 403 for a refused one), or a redirect that sets the session cookie (the first
 * request carrying the token in its URL).
 */
export type AuthOutcome =
  | { ok: true; user?: string }
  | { ok: false; status: 401 | 403 | 503; reason: string }
  | { ok: 'redirect'; location: string; setCookie: string };

export interface DashboardAuth {
  check(req: IncomingMessage): Promise<AuthOutcome>;
}

interface HandlerOptions {
  source: DashboardReader;
  auth: DashboardAuth;
  /** Open event streams at most; more get 503. @default 100 */
  maxStreams?: number;
  /** Comment lines keeping idle streams open through proxies. @default 25000 */
  heartbeatMs?: number;
  /** The Fleet page's source (`groundwork ui`); without it there is no Fleet page (the agent). */
  fleet?: FleetReader;
}

/**
 * The dashboard's requests: `GET` (and `HEAD`) of the pages, `/static/app.css`, `/static/app.js`
 * and `/events` (Server-Sent Events: a `change` event whenever the source changes). Every request
 * is checked by `auth` first, static files included; every response carries `SECURITY_HEADERS`.
 * Anything but GET/HEAD is 405: the dashboard is read-only. Returns false for paths it does not
 * serve (the caller answers 404 or serves them itself).
 */
export function dashboardHandler(
  opts: HandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  let streams = 0;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const path = url.pathname;
    if (!isDashboardPath(path)) return false;
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      send(res, 405, 'method not allowed: the dashboard is read-only\n', 'text/plain; charset=utf-8', {
        Allow: 'GET, HEAD',
      });
      return true;
    }
    // Browsers ask for it on their own; nothing secret, no icon: an empty answer, not a 404.
    if (path === '/favicon.ico') return (send(res, 204, '', 'image/x-icon'), true);
    const auth = await opts.auth.check(req);
    if (auth.ok === 'redirect') {
      send(res, 303, '', 'text/plain; charset=utf-8', {
        Location: auth.location,
        'Set-Cookie': auth.setCookie,
      });
      return true;
    }
    if (auth.ok === false) {
      send(
        res,
        auth.status,
        `${auth.status === 401 ? 'unauthorized' : auth.status === 403 ? 'forbidden' : 'unavailable'}: ${auth.reason}\n`,
        'text/plain; charset=utf-8',
        auth.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
      );
      return true;
    }
    const cached = { 'Cache-Control': STATIC_CACHE_CONTROL };
    if (path === '/static/app.css') return (send(res, 200, APP_CSS, 'text/css; charset=utf-8', cached), true);
    if (path === '/static/app.js')
      return (send(res, 200, APP_JS, 'text/javascript; charset=utf-8', cached), true);
    if (path === '/events') {
      if (streams >= (opts.maxStreams ?? 100)) return (send(res, 503, 'too many open dashboards\n'), true);
      streams++;
      openStream(req, res, opts, () => streams--);
      return true;
    }
    if (path === '/fleet') opts.fleet?.wanted();
    const page = render(path, url.searchParams, opts.source, opts.fleet);
    send(res, page.status, page.body.markup, 'text/html; charset=utf-8');
    return true;
  };
}

/** The paths the dashboard owns (so that the agent's server keeps `/metrics`, `/healthz`, `/readyz`, `/webhook`). */
export function isDashboardPath(path: string): boolean {
  return (
    [
      '/',
      '/objects',
      '/drift',
      '/history',
      '/openshift',
      '/fleet',
      '/events',
      '/static/app.css',
      '/static/app.js',
      '/favicon.ico',
    ].includes(path) || path.startsWith('/objects/')
  );
}

function render(
  path: string,
  query: URLSearchParams,
  source: DashboardReader,
  fleet: FleetReader | undefined,
): { status: number; body: Html } {
  const s = fleet ? { ...source.snapshot(), fleet: fleet.state() } : source.snapshot();
  switch (path) {
    case '/':
      return { status: 200, body: overviewPage(s) };
    case '/objects':
      return {
        status: 200,
        body: objectsPage(
          s,
          {
            kind: param(query, 'kind'),
            namespace: param(query, 'namespace'),
            health: param(query, 'health'),
            text: param(query, 'text'),
          },
          Number(param(query, 'page') ?? '1'),
        ),
      };
    case '/drift':
      return { status: 200, body: driftPage(s) };
    case '/history':
      return { status: 200, body: historyPage(s) };
    case '/openshift':
      return { status: 200, body: openshiftPage(s) };
    case '/fleet':
      return { status: fleet ? 200 : 404, body: fleetPage(s) };
  }
  let id: string;
  try {
    id = decodeURIComponent(path.slice('/objects/'.length));
  } catch {
    id = '';
  }
  const detail = source.detail(id);
  if (detail) return { status: 200, body: objectPage(s, detail) };
  return {
    status: 404,
    body: layout({
      title: 'Not managed',
      current: '/objects',
      snapshot: s,
      body: html`<p>The inventory lists no object <code>${id}</code>.</p>
        <p><a href="/objects">All objects</a></p>`,
    }),
  };
}

/** A filter value: at most 253 characters (a name's limit), else ignored. */
function param(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v && v.length <= 253 ? v : undefined;
}

function openStream(
  req: IncomingMessage,
  res: ServerResponse,
  opts: HandlerOptions,
  closed: () => void,
): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  let n = 0;
  const changed = () => res.write(`id: ${++n}\nevent: change\ndata: {}\n\n`);
  const unsubscribe = opts.source.onChange(changed);
  const unsubscribeFleet = opts.fleet?.onChange(changed);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), opts.heartbeatMs ?? 25_000);
  beat.unref?.();
  const done = () => {
    clearInterval(beat);
    unsubscribe();
    unsubscribeFleet?.();
    closed();
  };
  res.once('close', done);
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extra,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
