import { STAGES } from '../../core/stages.js';
import { HEALTH_ORDER } from '../../health/types.js';
import { html, href, type Html } from '../html.js';
import { filterRows, type ObjectFilter } from '../object-rows.js';
import type { DashboardSnapshot, ObjectRow } from '../snapshot.js';
import { badge, layout } from './layout.js';

/**
 * The Objects page: every managed object in apply order, grouped by stage, with its health verdict
 * and drift, filtered by kind, namespace, health and text (a GET form: the filter is in the URL,
 * works without script and survives a live update). Pure.
 */
export function objectsPage(s: DashboardSnapshot, filter: ObjectFilter): Html {
  const rows = filterRows(s.objects, filter);
  const kinds = [...new Set(s.objects.map((o) => o.ref.kind))].sort();
  const namespaces = [...new Set(s.objects.map((o) => o.ref.namespace).filter((n) => n))].sort();
  const body = html` <form class="filter" method="get" action="/objects" role="search">
      ${select('kind', 'Kind', kinds, filter.kind)}
      ${select('namespace', 'Namespace', namespaces, filter.namespace)}
      ${select('health', 'Health', HEALTH_ORDER, filter.health)}
      <label>Text <input type="search" name="text" value="${filter.text ?? ''}" /></label>
      <button type="submit">Filter</button>
    </form>
    <p class="count">${rows.length} of ${s.objects.length} objects</p>
    ${STAGES.map((stage) => {
      const inStage = rows.filter((r) => r.stage === stage.name);
      return inStage.length === 0 ? '' : stageTable(stage.name, stage.description, inStage);
    })}`;
  return layout({ title: 'Objects', current: '/objects', snapshot: s, body });
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

function stageTable(stage: string, description: string, rows: readonly ObjectRow[]): Html {
  return html`<section aria-label="Stage ${stage}">
    <h2>${stage} <small>${description}</small></h2>
    <div class="scroll">
      <table class="objects">
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Namespace</th>
            <th scope="col">Name</th>
            <th scope="col">Health</th>
            <th scope="col">Reason</th>
            <th scope="col">Drift</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (r) =>
              html`<tr>
                <td>${r.ref.kind}</td>
                <td>${r.ref.namespace || '—'}</td>
                <td><a href="${href(['objects', r.id])}">${r.ref.name}</a></td>
                <td>${badge(r.health.status)}</td>
                <td title="${r.health.message}">${r.health.reason}</td>
                <td>${r.drift ? html`<a href="/drift">${r.drift.type}</a>` : ''}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}
