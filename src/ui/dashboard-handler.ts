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
import type { ReaderAccess, ResourceOf } from './access-attributes.js';
import { readerDetail, readerSnapshot } from './reader-view.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { DashboardSnapshot, ObjectDetail } from './snapshot.js';
import { StreamLimits, type StreamLimitsOptions } from './stream-limits.js';

/** What the pages read: a snapshot, one object's detail, and change notices (`ClusterDashboardSource`). */
export interface DashboardReader {
  snapshot(): DashboardSnapshot;
  detail(id: string): ObjectDetail | undefined;
  onChange(listener: () => void): () => void;
  /** The resource of a managed kind, for authorizing its objects (`Reader.access`); without it, none is known. */
  resourceOf?: ResourceOf;
}

/**
 * Who reads: `key` names an authenticated identity (the TokenReview's user, the laptop's session)
 * for per-reader limits; `access`, when given, decides what they may see (the agent's dashboard:
 * `subjectAccess`). Without `access` the pages show what the source holds (`groundwork ui`: its
 * caches were read with the user's own credentials).
 */
export interface Reader {
  key: string;
  access?: ReaderAccess;
}

/**
 * Whether a request may read the dashboard: yes (with the user, for logs), no (401 to ask for
 * credentials, 403 for a refused one), or a redirect that sets the session cookie (the first
 * request carrying the token in its URL).
 */
export type AuthOutcome =
  | { ok: true; user?: string; reader?: Reader }
  | { ok: false; status: 401 | 403 | 503; reason: string }
  | { ok: 'redirect'; location: string; setCookie: string };

export interface DashboardAuth {
  check(req: IncomingMessage): Promise<AuthOutcome>;
}

interface HandlerOptions {
  source: DashboardReader;
  auth: DashboardAuth;
  /** Open event streams: per reader (more get 429) and in all (more get 503). @default 8 and 100 */
  streams?: StreamLimitsOptions;
  /** Comment lines keeping idle streams open through proxies. @default 25000 */
  heartbeatMs?: number;
  /** The Fleet page's source (`groundwork ui`); without it there is no Fleet page (the agent). */
  fleet?: FleetReader;
}

/**
 * The dashboard's requests: `GET` (and `HEAD`) of the pages, `/static/app.css`, `/static/app.js`
 * and `/events` (Server-Sent Events: a `change` event whenever the source or the fleet changes;
 * `streams` caps them per reader and in all, with `Retry-After`). The server counts those changes:
 * a page carries the count it was rendered at (`data-changes` on `<main>`), a stream says the count
 * when it opens (a `version` event) and with every `change`, so a page whose stream opened after a
 * change (the Fleet page's first read can end before the browser subscribes) sees it missed one and
 * refreshes, instead of waiting for a change that may never come. Every request is checked by `auth` first, static files
 * included; a page shows what the reader's `access` allows (`readerSnapshot`); every response
 * carries `SECURITY_HEADERS`.
 * Anything but GET/HEAD is 405: the dashboard is read-only. Returns false for paths it does not
 * serve (the caller answers 404 or serves them itself).
 */
export function dashboardHandler(
  opts: HandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const streams = new StreamLimits(opts.streams);
  // One subscription for all streams, so the count is raised before any stream tells of the change.
  const feed: ChangeFeed = { count: 0, streams: new Set() };
  const changed = () => {
    feed.count++;
    for (const tell of feed.streams) tell();
  };
  opts.source.onChange(changed);
  opts.fleet?.onChange(changed);
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
    const reader = auth.reader ?? { key: 'anonymous' };
    if (path === '/events') {
      const grant = streams.acquire(reader.key);
      if (!grant.ok)
        return (
          send(res, grant.status, `${grant.reason}\n`, 'text/plain; charset=utf-8', {
            'Retry-After': String(grant.retryAfter),
          }),
          true
        );
      openStream(res, opts, feed, grant.release);
      return true;
    }
    if (path === '/fleet') opts.fleet?.wanted();
    const page = await render(path, url.searchParams, opts, reader, feed.count);
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

/** The changes told so far, and the streams to tell of the next one. */
interface ChangeFeed {
  count: number;
  readonly streams: Set<() => void>;
}

/** A page as of the snapshot; `changes` is the count taken before it, so the page is never older than it claims. */
async function render(
  path: string,
  query: URLSearchParams,
  opts: HandlerOptions,
  reader: Reader,
  changes: number,
): Promise<{ status: number; body: Html }> {
  const { source, fleet } = opts;
  const view = await readerSnapshot(source, reader.access, { openshift: path === '/openshift' });
  const s = { ...view, ...(fleet ? { fleet: fleet.state() } : {}), changes };
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
      return { status: fleet ? 200 : 404, body: fleetPage(s, { selector: query.get('selector') }) };
  }
  let id: string;
  try {
    id = decodeURIComponent(path.slice('/objects/'.length));
  } catch {
    id = '';
  }
  const { detail, unchecked } = await readerDetail(source, reader.access, id);
  if (detail) return { status: 200, body: objectPage(s, detail) };
  if (unchecked > 0)
    return {
      status: 503,
      body: layout({
        title: 'Cannot check',
        current: '/objects',
        snapshot: s,
        body: html`<p>
          Your permissions could not be checked now (the apiserver did not answer): reload to try again.
        </p>`,
      }),
    };
  // The same answer whether the inventory lacks it or the reader may not read it: no existence oracle.
  return {
    status: 404,
    body: layout({
      title: 'Not managed',
      current: '/objects',
      snapshot: s,
      body: html`<p>
          The inventory lists no object <code>${id}</code>${reader.access ? ' that you may read' : ''}.
        </p>
        <p><a href="/objects">All objects</a></p>`,
    }),
  };
}

/** A filter value: at most 253 characters (a name's limit), else ignored. */
function param(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v && v.length <= 253 ? v : undefined;
}

/** A stream: the count of changes at once (`version`), then a `change` with the new count for each. */
function openStream(res: ServerResponse, opts: HandlerOptions, feed: ChangeFeed, closed: () => void): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write(`retry: 2000\n\nevent: version\ndata: ${feed.count}\n\n`);
  let n = 0;
  const tell = () => res.write(`id: ${++n}\nevent: change\ndata: ${feed.count}\n\n`);
  feed.streams.add(tell);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), opts.heartbeatMs ?? 25_000);
  beat.unref?.();
  const done = () => {
    clearInterval(beat);
    feed.streams.delete(tell);
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
