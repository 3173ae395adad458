import { ASSET_VERSION } from '../assets.js';
import { html, type Html, type HtmlValue } from '../html.js';
import type { DashboardSnapshot } from '../snapshot.js';

/** The pages of the dashboard, in navigation order: path and title. */
export const PAGES = [
  { path: '/', title: 'Overview' },
  { path: '/objects', title: 'Objects' },
  { path: '/drift', title: 'Drift' },
  { path: '/history', title: 'History' },
  { path: '/openshift', title: 'OpenShift' },
  { path: '/fleet', title: 'Fleet' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];

/**
 * A whole page around `body`: the navigation (the current page marked `aria-current`), a banner
 * for problems reading the cluster, and the one stylesheet and script (`/static/…`, same origin:
 * the Content-Security-Policy allows nothing else, and no inline script or style). The script
 * only swaps `<main>` for a fresh copy when the server says something changed (Server-Sent
 * Events), or that it changed since the page was rendered (`data-changes`); every page works
 * without it.
 */
export function layout(opts: {
  title: string;
  current: string;
  snapshot: DashboardSnapshot;
  body: Html;
}): Html {
  const { snapshot } = opts;
  const sync = snapshot.selected !== undefined ? snapshot.syncs[snapshot.selected] : undefined;
  const problems = [...snapshot.problems, ...hiddenLines(snapshot.hidden)];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.title} · Groundwork</title>
        <link rel="stylesheet" href="/static/app.css?v=${ASSET_VERSION}" />
        <script src="/static/app.js?v=${ASSET_VERSION}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">
            Groundwork${sync ? html` <span class="sync">${sync.namespace}/${sync.name}</span>` : ''}
          </p>
          <nav aria-label="Pages">
            <ul>
              ${PAGES.filter((p) => p.path !== '/fleet' || snapshot.fleet !== undefined).map(
                (p) =>
                  html`<li>
                    <a href="${p.path}" ${p.path === opts.current ? html` aria-current="page"` : ''}
                      >${p.title}</a
                    >
                  </li>`,
              )}
            </ul>
          </nav>
        </header>
        <main
          id="main"
          tabindex="-1"
          data-live="${opts.current}"
          ${snapshot.changes !== undefined ? html` data-changes="${String(snapshot.changes)}"` : ''}
        >
          ${
            problems.length > 0
              ? html`<div class="problems" role="status">
                  <h2>Cannot see everything</h2>
                  <ul>
                    ${problems.map((p) => html`<li>${p}</li>`)}
                  </ul>
                </div>`
              : ''
          }
          <h1>${opts.title}</h1>
          ${opts.body}
          <p class="asof">
            As of <time datetime="${snapshot.at.toISOString()}">${snapshot.at.toISOString()}</time> ·
            <span id="live-state">live updates off</span>
          </p>
        </main>
      </body>
    </html> `;
}

/** What the banner says was hidden from this reader: counts and kinds, never a name. */
function hiddenLines(hidden: DashboardSnapshot['hidden']): string[] {
  if (!hidden) return [];
  const lines: string[] = [];
  if (hidden.objects > 0)
    lines.push(
      `${hidden.objects} managed object(s) hidden: your Kubernetes RBAC does not let you get them (the counts leave them out too).`,
    );
  if (hidden.drift > 0)
    lines.push(`${hidden.drift} drifted object(s) hidden: your Kubernetes RBAC does not let you get them.`);
  if (hidden.openshift.length > 0)
    lines.push(
      `Some ${hidden.openshift.join(', ')} objects hidden: your Kubernetes RBAC does not let you read them.`,
    );
  if (hidden.unchecked > 0)
    lines.push(
      `${hidden.unchecked} permission check(s) could not be made (the apiserver did not answer, or too many for one page): what they cover is hidden; reload to try again.`,
    );
  return lines;
}

/** A health or condition state as a badge (class from a fixed list, never from data). */
export function badge(state: string | undefined): Html {
  const known = ['Healthy', 'Progressing', 'Suspended', 'Unknown', 'Missing', 'Degraded', 'True', 'False'];
  const cls = state && known.includes(state) ? state.toLowerCase() : 'unknown';
  return html`<span class="badge ${cls}">${state ?? 'Unknown'}</span>`;
}

/** A definition list of label and value pairs (values escaped; `Html` passes). */
export function facts(rows: readonly (readonly [string, Html | string | number | undefined])[]): Html {
  return html`<dl class="facts">
    ${rows.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v ?? '—'}</dd>`,
    )}
  </dl>`;
}

/** A table column: its heading, and `num` for right-aligned numbers. */
export type Column = string | { readonly label: string; readonly num?: boolean };

/**
 * A table that scrolls sideways on narrow screens: a header row of `columns` (`scope="col"`, for
 * screen readers) and `rows` (`<tr>`s) as its body. `className` is one of the stylesheet's
 * table classes, never data.
 */
export function table(columns: readonly Column[], rows: HtmlValue, opts: { className?: string } = {}): Html {
  const heads = columns.map((c) =>
    typeof c === 'string'
      ? html`<th scope="col">${c}</th>`
      : c.num
        ? html`<th scope="col" class="num">${c.label}</th>`
        : html`<th scope="col">${c.label}</th>`,
  );
  return html`<div class="scroll">
    <table class="${opts.className ?? ''}">
      <thead>
        <tr>
          ${heads}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
