import { html, type Html } from '../html.js';
import type { DashboardSnapshot } from '../snapshot.js';
import { layout, table } from './layout.js';
import { ms } from './overview.js';

/** The revisions applied or failed, newest first, with what started their cycle (`status.history`, as `groundwork sync history` reads it). Pure. */
export function historyPage(s: DashboardSnapshot): Html {
  const sync = s.selected !== undefined ? s.syncs[s.selected] : undefined;
  const history = sync?.status?.history ?? [];
  const body =
    history.length === 0
      ? html`<p>No revision applied yet.</p>`
      : html`${table(
          ['Ended', 'Revision', 'Outcome', 'Started by', 'Objects', { label: 'Cycle time', num: true }],
          history.map((h) => {
            const total = Object.values(h.timings ?? {}).reduce((a, b) => a + b, 0);
            const counts = Object.entries(h.counts ?? {})
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ');
            return html`<tr>
              <td><time datetime="${h.at}">${h.at}</time></td>
              <td><code>${h.revision}</code></td>
              <td>${h.outcome}${h.reason ? ` (${h.reason})` : ''}</td>
              <td>${h.trigger ?? '—'}</td>
              <td>${counts || '—'}</td>
              <td class="num">${h.timings ? ms(total) : '—'}</td>
            </tr>`;
          }),
        )}`;
  return layout({ title: 'History', current: '/history', snapshot: s, body });
}
