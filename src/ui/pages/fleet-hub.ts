import { matchesLabelSelector } from '../../core/label-selector.js';
import { shortRevision } from '../../core/revision.js';
import { hubFleetRows, type HubFleetRow } from '../../hub/fleet-list.js';
import type { FleetRolloutObject, MemberRolloutStatus } from '../../hub/rollout-schema.js';
import { parseFleetSelector } from '../fleet-selector.js';
import type { FleetState, HubFleetView } from '../fleet-state.js';
import { html, type Html } from '../html.js';
import { badge, facts, table } from './layout.js';

/** Members drawn at most (the rest are counted: narrow them with the selector). */
export const HUB_PAGE_MEMBER_ROWS = 500;

/**
 * The Fleet page's body with `groundwork ui --hub`: the rollouts (phase, each wave's members
 * succeeded, in flight, held and failed, and every held or failed member with the hub's reason),
 * then the members (environment, applied revision, Ready, drift, reachability) that match the
 * `?selector=` label query (`parseFleetSelector`; a refused one is said on the page and filters
 * nothing). Pure: every value is escaped by `html`.
 */
export function hubFleetBody(
  state: FleetState,
  hub: HubFleetView,
  selectorQuery: string | null | undefined,
): Html {
  const parsed = parseFleetSelector(selectorQuery);
  const members = parsed.ok
    ? hub.members.filter((m) => matchesLabelSelector(m.labels, parsed.selector))
    : hub.members;
  const rows = hubFleetRows(members);
  const shown = rows.slice(0, HUB_PAGE_MEMBER_ROWS);
  const rollouts = [...hub.rollouts].sort(
    (a, b) =>
      (b.creationTimestamp ?? '').localeCompare(a.creationTimestamp ?? '') || a.name.localeCompare(b.name),
  );
  return html`<p>
      Read from the hub by two watches (FleetMembers and FleetRollouts): ${hub.members.length} member(s),
      ${hub.rollouts.length} rollout(s)${hub.watching ? '' : '; a watch is not running, this may be behind'}.
    </p>
    ${state.error ? html`<p class="problem">The hub's watch failed: ${state.error}</p>` : ''}
    ${
      hub.problems.length > 0
        ? html`<ul class="problems">
            ${hub.problems.map((p) => html`<li>${p}</li>`)}
          </ul>`
        : ''
    }
    <section aria-labelledby="rollouts-h">
      <h2 id="rollouts-h">Rollouts</h2>
      ${rollouts.length === 0 ? html`<p>No rollout on the hub.</p>` : rollouts.map(rolloutSection)}
    </section>
    <section aria-labelledby="members-h">
      <h2 id="members-h">Members</h2>
      <form method="get" action="/fleet">
        <label for="selector">Label selector</label>
        <input id="selector" name="selector" value="${selectorQuery ?? ''}" placeholder="region=eu,!canary" />
        <button type="submit">Filter</button>
      </form>
      ${parsed.ok ? '' : html`<p class="problem" role="alert">The selector is refused (${parsed.problem}): every member is shown.</p>`}
      ${parsed.ok && parsed.text !== '' ? html`<p>${rows.length} of ${hub.members.length} member(s) match <code>${parsed.text}</code>.</p>` : ''}
      ${rows.length === 0 ? html`<p>No member matches.</p>` : memberTable(shown)}
      ${rows.length > shown.length ? html`<p>${rows.length - shown.length} more member(s) not drawn: narrow them with the selector.</p>` : ''}
    </section>`;
}

function rolloutSection(r: FleetRolloutObject): Html {
  const st = r.status;
  const byWave = new Map<number, MemberRolloutStatus[]>();
  for (const m of st?.members ?? []) byWave.set(m.wave, [...(byWave.get(m.wave) ?? []), m]);
  const stuck = (st?.members ?? []).filter((m) => m.state === 'Held' || m.state === 'Failed');
  return html`<section class="rollout" data-rollout="${r.name}" aria-label="Rollout ${r.name}">
    <h3>${r.name} <small>${r.spec.environment}</small></h3>
    ${facts([
      ['Phase', badge(st?.phase ?? 'Unknown')],
      ['Revision', html`<code>${r.spec.ref}@${r.spec.revision.slice(0, 12)}</code>`],
      ['Message', st?.halted ? `halted: ${st.halted.reason}: ${st.halted.message}` : st?.message],
      ['Paused', r.spec.paused ? 'yes' : r.spec.aborted ? 'aborted' : 'no'],
    ])}
    ${table(
      [
        'Wave',
        'State',
        { label: 'Members', num: true },
        { label: 'Succeeded', num: true },
        { label: 'In flight', num: true },
        { label: 'Held', num: true },
        { label: 'Failed', num: true },
      ],
      (st?.waves ?? []).map(
        (w, i) =>
          html`<tr data-wave="${w.name}">
            <td>${w.name}</td>
            <td>${w.state}</td>
            <td class="num">${w.members}</td>
            <td class="num">${w.succeeded}</td>
            <td class="num">${(byWave.get(i) ?? []).filter((m) => m.state === 'Released').length}</td>
            <td class="num">${w.held}</td>
            <td class="num">${w.failed}</td>
          </tr>`,
      ),
    )}
    ${
      stuck.length === 0
        ? ''
        : table(
            ['Member', 'Wave', 'State', 'Why'],
            stuck.map(
              (m) =>
                html`<tr data-held="${m.name}">
                  <td>${m.name}</td>
                  <td>${st?.waves?.[m.wave]?.name ?? m.wave}</td>
                  <td>${m.state}</td>
                  <td>${m.reason ?? ''}${m.message ? `: ${m.message}` : ''}</td>
                </tr>`,
            ),
          )
    }
  </section>`;
}

function memberTable(rows: readonly HubFleetRow[]): Html {
  return table(
    ['Member', 'Environment', 'Revision', 'Ready', { label: 'Drift', num: true }, 'Reachability'],
    rows.map(
      (r) =>
        html`<tr data-member="${r.member}">
          <td>${r.member}</td>
          <td>${r.environment ?? '—'}</td>
          <td>${r.revision ? html`<code>${shortRevision(r.revision)}</code>` : '—'}</td>
          <td>
            ${r.reportProblem ? html`<span class="problem">report unreadable: ${r.reportProblem}</span>` : html`${badge(r.ready)} ${r.ready === 'True' ? '' : (r.reason ?? '')}`}
          </td>
          <td class="num">${r.drift ?? '—'}</td>
          <td>${r.reachability}</td>
        </tr>`,
    ),
  );
}
