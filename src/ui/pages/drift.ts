import { driftText } from '../../report/sync-status-render.js';
import { html, href, type Html } from '../html.js';
import type { DashboardSnapshot } from '../snapshot.js';
import { layout, table } from './layout.js';

/**
 * Drift as the agent last reported it (its drift watch re-plans an edited object within a second
 * and writes `status.drift`): one row per drifted field with git's value (when the agent's desired
 * objects are known), the live value (both redacted) and the manager that wrote it. Rows leave
 * when the agent reports the object corrected. Pure.
 */
export function driftPage(s: DashboardSnapshot): Html {
  const sync = s.selected !== undefined ? s.syncs[s.selected] : undefined;
  const d = sync?.status?.drift;
  const hidden = s.hidden?.drift ?? 0;
  const body =
    s.drift.length === 0 && hidden > 0
      ? html`<p class="none">No drift you may see (${hidden} drifted object(s) hidden).</p>`
      : s.drift.length === 0
        ? html`<p class="none">
            No drift: the cluster matches
            git${sync?.status?.lastAppliedRevision ? html` at <code>${sync.status.lastAppliedRevision}</code>` : ''}.
          </p>`
        : html`<p>
              ${driftText(d)}${d && d.drifted > s.drift.length + hidden ? ` (the first ${s.drift.length + hidden} listed; groundwork plan lists all)` : ''}${hidden > 0 ? ` (${hidden} hidden)` : ''}
            </p>
            ${table(
              ['Object', 'Type', 'Field', "Git's value", 'Live value', 'Changed by'],
              s.drift.flatMap((r) => {
                const object = r.id
                  ? html`<a href="${href(['objects', r.id])}">${r.object}</a>`
                  : html`${r.object}`;
                if (r.fields.length === 0)
                  return [
                    html`<tr data-drift="${r.object}">
                      <td>${object}</td>
                      <td>${r.type}</td>
                      <td>—</td>
                      <td>—</td>
                      <td>—</td>
                      <td>—</td>
                    </tr>`,
                  ];
                return r.fields.map(
                  (f) =>
                    html`<tr data-drift="${r.object}">
                      <td>${object}</td>
                      <td>${r.type}</td>
                      <td><code>${f.path}</code></td>
                      <td>${s.desiredRevision ? html`<code>${f.git ?? '(absent)'}</code>` : '—'}</td>
                      <td><code>${f.live ?? '(absent)'}</code></td>
                      <td>${f.managers.join(', ') || '—'}</td>
                    </tr>`,
                );
              }),
              { className: 'drift' },
            )}
            <p class="note">
              ${s.desiredRevision ? html`Git's values are those of <code>${s.desiredRevision}</code>, as the agent applied it.` : html`Git's values are shown by the agent's own dashboard (<code>groundwork agent --dashboard</code>), which holds the desired objects; this one reads the cluster only.`}
            </p>`;
  return layout({ title: 'Drift', current: '/drift', snapshot: s, body });
}
