import { STAGES } from '../../core/stages.js';
import { HEALTH_ORDER } from '../../health/types.js';
import { html, href, type Html } from '../html.js';
import { filterRows, type ObjectFilter } from '../object-rows.js';
import type { DashboardSnapshot, ObjectRow } from '../snapshot.js';
import { badge, layout } from './layout.js';

/**
 * The Objects page: every managed object in apply order, grouped by stage, with its health verdict
 * and drift, filtered by kind, namespace, health and text (a GET form: the filter is in the URL,
 * works without script and survives a live update), `PAGE_SIZE` rows a page (`page`, from 1; out of
 * range is clamped). Pure.
 */
export function objectsPage(s: DashboardSnapshot, filter: ObjectFilter, page = 1): Html {
  const matching = filterRows(s.objects, filter);
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = matching.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const kinds = [...new Set(s.objects.map((o) => o.ref.kind))].sort();
  const namespaces = [...new Set(s.objects.map((o) => o.ref.namespace).filter((n) => n))].sort();
  const body = html` <form class="filter" method="get" action="/objects" role="search">
      ${select('kind', 'Kind', kinds, filter.kind)}
      ${select('namespace', 'Namespace', namespaces, filter.namespace)}
      ${select('health', 'Health', HEALTH_ORDER, filter.health)}
      <label>Text <input type="search" name="text" value="${filter.text ?? ''}" /></label>
      <button type="submit">Filter</button>
    </form>
    <p class="count">
      ${matching.length} of ${s.objects.length}
      objects${pages > 1 ? `, ${(current - 1) * PAGE_SIZE + 1}-${(current - 1) * PAGE_SIZE + rows.length} shown` : ''}
    </p>
    ${pages > 1 ? pager(filter, current, pages) : ''}
    ${STAGES.map((stage) => {
      const inStage = rows.filter((r) => r.stage === stage.name);
      return inStage.length === 0 ? '' : stageTable(stage.name, stage.description, inStage);
    })}`;
  return layout({ title: 'Objects', current: '/objects', snapshot: s, body });
}

/**
 * Rows per page: a page stays quick to load and lay out in the browser whatever the inventory's
 * size (Argo CD's resource views freeze the browser past about a thousand resources; bench ui).
 */
export const PAGE_SIZE = 500;

function pager(filter: ObjectFilter, current: number, pages: number): Html {
  const link = (n: number, label: string) =>
    html`<a href="${href(['objects'], { ...filter, ...(n > 1 ? { page: String(n) } : {}) })}">${label}</a>`;
  return html`<nav class="pager" aria-label="Pages of objects">
    ${current > 1 ? link(current - 1, 'Previous') : ''} Page ${current} of ${pages}
    ${current < pages ? link(current + 1, 'Next') : ''}
  </nav>`;
}

function select(name: string, label: string, options: readonly string[], value: string | undefined): Html {
  return html`<label
    >${label}
    <select name="${name}">
      <option value="">any</option>
      ${options.map((o) => html`<option${o === value ? html` selected` : ''}>${o}</option>`)}
    </select></label
  >`;
}

/**
 * Rows per block of a stage's table. Each block is its own `<table>` in a `div.rows`, which the
 * stylesheet gives `content-visibility: auto`: the browser styles, lays out and paints only the
 * blocks near the viewport (a table's own rows cannot be skipped: CSS containment does not apply
 * inside a table). Every block has the same fixed column widths, so the columns line up; every
 * block keeps its header row (after the first, out of sight but read by screen readers), so each
 * table names its columns. bench ui measures the difference.
 */
export const ROWS_PER_BLOCK = 50;

const COLUMNS = ['Kind', 'Namespace', 'Name', 'Health', 'Reason', 'Drift'];

function stageTable(stage: string, description: string, rows: readonly ObjectRow[]): Html {
  const blocks: (readonly ObjectRow[])[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_BLOCK) blocks.push(rows.slice(i, i + ROWS_PER_BLOCK));
  const head = html`<thead>
    <tr>
      ${COLUMNS.map((c) => html`<th scope="col">${c}</th>`)}
    </tr>
  </thead>`;
  return html`<section aria-label="Stage ${stage}">
    <h2>${stage} <small>${description}</small></h2>
    <div class="scroll">
      ${blocks.map(
        (block, i) =>
          html`<div class="rows">
            <table
              class="${i === 0 ? 'objects' : 'objects more'}"
              aria-label="${stage}, objects ${i * ROWS_PER_BLOCK + 1}-${i * ROWS_PER_BLOCK + block.length}"
            >
              ${head}
              <tbody>
                ${block.map(objectRow)}
              </tbody>
            </table>
          </div>`,
      )}
    </div>
  </section>`;
}

/** One object's row, on one line: 500 rows of indentation would be a fifth of the page's bytes. */
// prettier-ignore
const objectRow = (r: ObjectRow): Html => html`<tr><td>${r.ref.kind}</td><td>${r.ref.namespace || '—'}</td><td><a href="${href(['objects', r.id])}">${r.ref.name}</a></td><td>${badge(r.health.status)}</td><td title="${r.health.message}">${r.health.reason}</td><td>${r.drift ? html`<a href="/drift">${r.drift.type}</a>` : ''}</td></tr>`;
