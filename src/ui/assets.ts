import { createHash } from 'node:crypto';

/**
 * The dashboard's one stylesheet and one script, served from `/static/` (the Content-Security-Policy
 * allows scripts and styles from this origin only, and no inline ones). Kept as strings so the
 * package needs no bundler or asset copy step: the script is plain ES2020 that current Chromium and
 * Firefox run as written.
 */
export const APP_CSS = `
:root { color-scheme: light dark; --fg: #1b1f23; --bg: #fff; --muted: #57606a; --line: #d0d7de; --link: #0550ae;
  --ok: #116329; --warn: #7d4e00; --bad: #a40e26; --info: #0550ae; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --link: #6cb6ff;
  --ok: #3fb950; --warn: #d29922; --bad: #ff7b72; --info: #79c0ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, pre:focus-visible { outline: 3px solid var(--info); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; margin: 0; } .sync { font-weight: 400; color: var(--muted); }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
main { padding: 1rem; max-width: 90rem; }
h1 { margin-top: 0; font-size: 1.5rem; } h2 { font-size: 1.2rem; } h2 small { font-weight: 400; color: var(--muted); font-size: .85rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
main p, main li { overflow-wrap: anywhere; } /* a revision's 40 hex digits must not widen a narrow page */
.scroll { overflow-x: auto; }
/* The Objects page's blocks of rows (pages/objects.ts): drawn only near the viewport, same fixed columns. */
.rows { min-width: 46rem; content-visibility: auto; contain-intrinsic-size: auto 1660px; }
table.objects { table-layout: fixed; }
.objects th:nth-child(1) { width: 17%; } .objects th:nth-child(2) { width: 14%; } .objects th:nth-child(3) { width: 27%; }
.objects th:nth-child(4) { width: 13%; } .objects th:nth-child(5) { width: 19%; } .objects th:nth-child(6) { width: 10%; }
.objects.more th { font-size: 0; line-height: 0; padding: 0; border: 0; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
th { font-weight: 600; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: .6rem; border: 1px solid currentColor; font-size: .85rem; white-space: nowrap; }
.healthy, .true { color: var(--ok); } .progressing, .suspended { color: var(--info); } .unknown { color: var(--muted); }
.missing, .degraded, .false { color: var(--bad); }
.counts { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; } .counts .n { font-size: 1.2rem; font-weight: 600; }
.filter { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.filter label { display: flex; flex-direction: column; font-size: .9rem; }
input, select, button { font: inherit; padding: .2rem .4rem; }
pre.yaml { overflow: auto; max-height: 40rem; padding: .5rem; border: 1px solid var(--line); }
.problems, .problem { border-left: 4px solid var(--bad); padding: .25rem .75rem; }
.asof { color: var(--muted); font-size: .85rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const APP_JS = `'use strict';
// Live updates: the server sends a 'change' event (Server-Sent Events, same origin, the session
// cookie) when its watch-fed caches move; the page then fetches itself and swaps <main>. Nothing
// here builds markup from data: the server escaped it and DOMParser runs no script.
//
// One event stream per browser, not per tab: this file also runs as a SharedWorker that holds the
// stream and tells every tab. A browser keeps at most six HTTP/1.1 connections to a host, and a
// stream holds one for good: with a stream per tab, the seventh tab of the dashboard never loads.
// A hidden tab refreshes when it is shown again, not on every change.
// A change told before a tab listened (its page rendered, its stream not yet open) is not lost:
// the server counts changes, the page carries the count it was rendered at (data-changes), and the
// stream says the count when it opens and with each change; a tab that hears a count other than
// its page's refreshes.
(function () {
  // The event stream, its news told to hear(kind, data): 'state' (what the page shows), 'version'
  // and 'change' (the server's change count). The browser reconnects a stream that broke by itself;
  // one the server refused (429: this reader's streams are all taken; 503: every stream is; or the
  // stream of a tab just closed not yet released) it closes for good, so it is opened again here
  // after 2 s, then twice as long each time, at most 30 s, and goes live once a stream is free.
  function stream(hear) {
    var wait = 2000;
    (function open() {
      var es = new EventSource('/events');
      es.addEventListener('open', function () { wait = 2000; hear('state', 'live'); });
      es.addEventListener('error', function () {
        if (es.readyState !== 2) return hear('state', 'reconnecting');
        hear('state', 'live updates paused (too many open dashboards): retrying');
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 30000);
      });
      es.addEventListener('version', function (e) { hear('version', e.data); });
      es.addEventListener('change', function (e) { hear('change', e.data); });
    })();
  }
  if (typeof document === 'undefined') {
    // In the SharedWorker: one stream, its news to every connected tab.
    var ports = [], last = 'connecting', count = null;
    var tell = function (msg) { for (var i = 0; i < ports.length; i++) ports[i].postMessage(msg); };
    stream(function (kind, data) {
      if (kind === 'state') { last = data; tell(last); }
      else { count = data; tell(kind === 'version' ? 'changes:' + count : 'change'); }
    });
    self.addEventListener('connect', function (e) {
      var port = e.ports[0];
      ports.push(port);
      port.onmessage = function (m) { if (m.data === 'bye') ports.splice(ports.indexOf(port), 1); };
      port.postMessage(last);
      if (count !== null) port.postMessage('changes:' + count);
    });
    return;
  }
  var state = document.getElementById('live-state');
  if (!window.EventSource || !window.fetch || !window.DOMParser) return;
  var busy = false, again = false, stale = false;
  function say(text) { var el = document.getElementById('live-state'); if (el) el.textContent = text; }
  function editing() { var a = document.activeElement; return a && a.closest && a.closest('form'); }
  function refresh() {
    if (document.hidden) { stale = true; return; }
    if (busy || editing()) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (res) { return res.ok ? res.text() : Promise.reject(new Error(String(res.status))); })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById('main');
        var cur = document.getElementById('main');
        if (next && cur) cur.replaceWith(document.importNode(next, true));
        say('live');
      })
      .catch(function () { say('update failed, retrying'); })
      .then(function () { busy = false; if (again) { again = false; setTimeout(refresh, 100); } });
  }
  function behind(count) { var m = document.getElementById('main'); var mine = m && m.getAttribute('data-changes'); return mine !== null && mine !== undefined && mine !== count; }
  function heard(msg) {
    if (msg === 'change') refresh();
    else if (msg.indexOf('changes:') === 0) { if (behind(msg.slice(8))) refresh(); }
    else say(msg);
  }
  document.addEventListener('focusout', function () { if (again) { again = false; setTimeout(refresh, 50); } });
  document.addEventListener('visibilitychange', function () { if (!document.hidden && stale) { stale = false; refresh(); } });
  var script = document.querySelector('script[src^="/static/app.js"]');
  if (window.SharedWorker && script) {
    var worker = new SharedWorker(script.getAttribute('src'), { name: 'groundwork-live' });
    worker.port.onmessage = function (m) { heard(m.data); };
    addEventListener('pagehide', function () { worker.port.postMessage('bye'); });
  } else {
    stream(function (kind, data) { heard(kind === 'state' ? data : kind === 'version' ? 'changes:' + data : 'change'); });
  }
  if (state) state.textContent = 'connecting';
})();
`;

/**
 * The assets' version: a hash of both files, put in their URLs (`/static/app.css?v=…`). Browsers
 * may keep them (`STATIC_CACHE_CONTROL`) and skip two requests on every page; a new release
 * changes the URL, so an old copy is never used.
 */
export const ASSET_VERSION = createHash('sha256').update(APP_CSS).update(APP_JS).digest('hex').slice(0, 12);

/**
 * Cache-Control of the stylesheet and script: kept a year by this browser only (`private`: behind
 * the token check, no shared cache may hold them; they hold no cluster data), never revalidated.
 */
export const STATIC_CACHE_CONTROL = 'private, max-age=31536000, immutable';
