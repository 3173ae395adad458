import { HEALTH_ORDER } from '../../health/types.js';
import { driftText, suspendedText } from '../../report/sync-status-render.js';
import { html, href, type Html } from '../html.js';
import type { DashboardSnapshot } from '../snapshot.js';
import { badge, facts, layout } from './layout.js';

const PHASES = ['fetch', 'synth', 'plan', 'apply', 'health'] as const;

/**
 * The Overview: platform, overlay, repository, revision, Ready and health, last applied, the last
 * cycles' phase timings (`status.history`), objects by health, the drift counts and, when
 * groundwork.yaml asks for them, how many unmanaged objects there are. Pure.
 */
export function overviewPage(s: DashboardSnapshot): Html {
  return layout({ title: 'Overview', current: '/', snapshot: s, body: overviewBody(s) });
}

function overviewBody(s: DashboardSnapshot): Html {
  const sync = s.selected !== undefined ? s.syncs[s.selected] : undefined;
  if (!sync)
    return html`<p>
      No PlatformSync found. Start the agent (<code>groundwork agent</code> or
      <code>groundwork bootstrap</code>), or pass <code>--namespace</code>/<code>--sync</code>.
    </p>`;
  const st = sync.status;
  const ready = st?.conditions.find((c) => c.type === 'Ready');
  const lastApplied = st?.history?.find((h) => h.outcome === 'applied');
  const ref = sync.spec.repository.ref;
  const counts = HEALTH_ORDER.map((h) => [h, s.objects.filter((o) => o.health.status === h).length] as const);
  return html` ${sync.statusProblem ? html`<p class="problem">Status unreadable: ${sync.statusProblem}</p>` : ''}
    <section aria-labelledby="sync-h">
      <h2 id="sync-h">Platform</h2>
      ${facts([
        ['Platform', s.inventory?.platform],
        ['Overlay', sync.spec.overlay],
        [
          'Repository',
          `${sync.spec.repository.url}${sync.spec.repository.path ? ` (${sync.spec.repository.path})` : ''}`,
        ],
        ['Ref', ref.branch ?? ref.tag ?? ref.commit],
        ['Mode', sync.spec.mode ?? 'self-heal'],
        ['Revision applied', html`<code class="revision">${st?.lastAppliedRevision ?? '—'}</code>`],
        [
          'Commit applied',
          st?.lastAppliedCommit
            ? html`${st.lastAppliedCommit.subject} (by ${st.lastAppliedCommit.author})`
            : undefined,
        ],
        ['Revision attempted', html`<code>${st?.lastAttemptedRevision ?? '—'}</code>`],
        ['Ready', ready ? html`${badge(ready.status)} ${ready.reason}: ${ready.message}` : undefined],
        [
          'Health',
          st?.health
            ? html`${badge(st.health.status)}
              ${st.health.reason}${st.health.message ? `: ${st.health.message}` : ''}`
            : undefined,
        ],
        [
          'Last applied',
          lastApplied ? html`<time datetime="${lastApplied.at}">${lastApplied.at}</time>` : undefined,
        ],
        ['Last reconcile', st?.lastReconcileTime],
        ['Suspended', st?.suspended ? suspendedText(st.suspended) : 'no'],
        ['Drift', html`<a href="/drift">${driftText(st?.drift)}</a>`],
        // Only the total: the counts per namespace and kind are not filtered by the viewer's RBAC.
        ...(st?.unmanaged
          ? [
              [
                'Unmanaged',
                `${st.unmanaged.count} object(s) Groundwork did not apply in its namespaces (${st.unmanaged.failOn ? 'counted as drift' : 'informational'}; groundwork drift --unmanaged lists them)`,
              ] as const,
            ]
          : []),
      ])}
      ${
        (st?.pending ?? []).length > 0
          ? html`<h3>Waiting</h3>
              <ul>
                ${st!.pending!.map((p) => html`<li><strong>${p.stage}</strong>: ${p.message}</li>`)}
              </ul>`
          : ''
      }
    </section>
    <section aria-labelledby="health-h">
      <h2 id="health-h">Objects by health</h2>
      <ul class="counts">
        ${counts.map(
          ([h, n]) =>
            html`<li>
              <a href="${href(['objects'], { health: h })}">${badge(h)} <span class="n">${n}</span></a>
            </li>`,
        )}
      </ul>
    </section>
    <section aria-labelledby="cycles-h">
      <h2 id="cycles-h">Last cycles</h2>
      ${cyclesTable(st?.history ?? [])}
    </section>`;
}

function cyclesTable(
  history: NonNullable<NonNullable<DashboardSnapshot['syncs'][number]['status']>['history']>,
): Html {
  if (history.length === 0) return html`<p>No cycle recorded yet.</p>`;
  return html`<div class="scroll">
    <table>
      <caption class="visually-hidden">
        Phase timings of the last cycles, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Ended</th>
          <th scope="col">Revision</th>
          <th scope="col">Outcome</th>
          ${PHASES.map((p) => html`<th scope="col" class="num">${p}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${history.slice(0, 5).map(
          (h) =>
            html`<tr>
              <td><time datetime="${h.at}">${h.at}</time></td>
              <td><code>${h.revision}</code></td>
              <td>${h.outcome}${h.reason ? ` (${h.reason})` : ''}</td>
              ${PHASES.map((p) => html`<td class="num">${ms(h.timings?.[p])}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Milliseconds as `850 ms` or `2.3 s`; a dash when not recorded. */
export function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}
