import { type FleetRow, type GateName } from '../../fleet/gates.js';
import { shortRevision } from '../../core/revision.js';
import type { EnvironmentView, NextPromotion } from '../../fleet/fleet-view.js';
import { html, type Html } from '../html.js';
import type { FleetState } from '../fleet-state.js';
import type { DashboardSnapshot } from '../snapshot.js';
import { hubFleetBody } from './fleet-hub.js';
import { badge, facts, layout, table } from './layout.js';
import { ms } from './overview.js';

/** What each gate asks of the source environment (docs/fleet.md's table, shortened). */
const GATE_TEXT: Record<GateName, string> = {
  Reachable: 'every overlay of the source has a cluster that could be read',
  Ready: 'each reports Ready=True',
  Healthy: 'health roll-up Healthy',
  NoDrift: 'no drifted objects',
  NoPendingWaits: 'no stage wait held',
  SameRevision: 'all run one commit, and it is on the source ref',
  Soaked: 'Ready at that commit for the soak time',
  FastForward: 'the target ref can move by fast-forward',
  Window: 'no ClusterVersion or MachineConfig change outside the promotion windows',
  Verified: 'the commit is signed by a trusted key',
};

/**
 * The Fleet page: per environment its clusters (as `fleet status` reads them: reachable or not,
 * overlay, revision, commits behind, Ready, health, drift, last applied), its promotion windows,
 * and the promotion into it as `promote --dry-run` decides it: every gate, passed or failing,
 * with what holds it. Read-only: it shows no button. Pure: renders `s.fleet` (every value
 * escaped).
 */
export function fleetPage(s: DashboardSnapshot, query: { selector?: string | null } = {}): Html {
  const hub = s.fleet?.hub;
  const body = hub ? hubFleetBody(s.fleet!, hub, query.selector) : fleetBody(s.fleet);
  return layout({ title: 'Fleet', current: '/fleet', snapshot: s, body });
}

function fleetBody(state: FleetState | undefined): Html {
  if (!state)
    return html`<p>This dashboard shows no fleet (the agent's dashboard shows its own cluster).</p>`;
  if (state.unavailable) return html`<p class="problem">${state.unavailable}</p>`;
  const view = state.view;
  const every = ms(state.intervalMs);
  const head = view
    ? html`<p>
        Platform <strong>${view.platform}</strong>: ${view.environments.length} environment(s), read at
        <time datetime="${view.at.toISOString()}">${view.at.toISOString()}</time>
        ${state.lastReadMs !== undefined ? ` in ${ms(state.lastReadMs)}` : ''}; read again every ${every}
        while this dashboard runs.
      </p>`
    : html`<p>Reading the fleet: each cluster of the fleet, then git. This page updates when it is done.</p>`;
  return html`${head} ${state.error ? html`<p class="problem">The last read failed: ${state.error}</p>` : ''}
  ${
    view && view.problems.length > 0
      ? html`<ul class="problems">
          ${view.problems.map((p) => html`<li>${p}</li>`)}
        </ul>`
      : ''
  }
  ${view ? othersSection(view.others) : ''} ${view ? view.environments.map(environmentSection) : ''}
  ${view && view.environments.length === 0 ? html`<p>groundwork.yaml declares no environments.</p>` : ''}`;
}

/** Clusters that could not be read (their environment is unknown), and overlays in no environment. */
function othersSection(others: readonly FleetRow[]): Html {
  const unread = others.filter((r) => r.overlay === undefined);
  const unplaced = others.filter((r) => r.overlay !== undefined);
  const unreadPart = html`<section aria-labelledby="unread-h">
    <h2 id="unread-h">Clusters not read</h2>
    ${table(
      ['Cluster', 'Context', 'Why'],
      unread.map(
        (r) =>
          html`<tr data-cluster="${r.cluster}">
            <td>${r.cluster}</td>
            <td>${r.context}</td>
            <td>${badge(r.ready)} ${r.error}</td>
          </tr>`,
      ),
    )}
  </section>`;
  const unplacedPart = html`<section aria-labelledby="unplaced-h">
    <h2 id="unplaced-h">Overlays in no environment</h2>
    ${clusterTable(unplaced)}
  </section>`;
  return html`${unread.length > 0 ? unreadPart : ''}${unplaced.length > 0 ? unplacedPart : ''}`;
}

function environmentSection(env: EnvironmentView): Html {
  const id = `env-${env.name}`;
  return html`<section class="env" aria-labelledby="${id}-h" data-env="${env.name}">
    <h2 id="${id}-h">${env.name} <small>${env.ref}</small></h2>
    ${facts([
      ['Ref', html`<code>${env.ref}</code>`],
      ['Overlays', env.overlays.join(', ')],
      [
        'Commits arrive',
        env.promotedFrom ? `by promotion from ${env.promotedFrom}` : `on ${env.ref} directly`,
      ],
      ['Promotes to', env.promotesTo.length > 0 ? env.promotesTo.join(', ') : 'none'],
      ['Soak time', env.soak],
      ['Promotion windows', env.window ? env.window.reason : 'none: promotions may happen at any time'],
    ])}
    ${env.rows.length > 0 ? clusterTable(env.rows) : ''}
    ${
      env.missing.length > 0
        ? html`<p class="problem">No cluster of the fleet reports overlay ${env.missing.join(', ')}.</p>`
        : ''
    }
    ${env.promotedFrom ? promotionPart(env, env.promotedFrom, env.next) : ''}
  </section>`;
}

function clusterTable(rows: readonly FleetRow[]): Html {
  return table(
    [
      'Cluster',
      'Overlay',
      'Revision',
      { label: 'Behind', num: true },
      'Ready',
      'Health',
      { label: 'Drift', num: true },
      'Last applied',
    ],
    rows.map(
      (r) =>
        html`<tr data-cluster="${r.cluster}">
          <td>${r.cluster}${r.error ? html`<br /><span class="problem">${r.error}</span>` : ''}</td>
          <td>${r.overlay ?? '—'}</td>
          <td>${r.revision ? html`<code>${shortRevision(r.revision)}</code>` : '—'}</td>
          <td class="num">${r.behind ?? (r.revision ? '?' : '—')}</td>
          <td>${badge(r.ready)}${r.ready !== 'True' && r.reason ? ` ${r.reason}` : ''}</td>
          <td>${r.health ? badge(r.health) : '—'}</td>
          <td class="num">${r.drift}</td>
          <td>${r.lastApplied ? html`<time datetime="${r.lastApplied}">${r.lastApplied}</time>` : '—'}</td>
        </tr>`,
    ),
  );
}

function promotionPart(env: EnvironmentView, from: string, next: NextPromotion | undefined): Html {
  const title = html`<h3>Next promotion: ${from} → ${env.name}</h3>`;
  if (!next)
    return html`${title}
      <p>Not read yet.</p>`;
  if (next.error !== undefined)
    return html`${title}
      <p class="problem" data-outcome="error">Cannot check the gates: ${next.error}</p>`;
  const r = next.result;
  const commit = r.commit ? r.commit.slice(0, 12) : undefined;
  const failed = r.gates.filter((g) => !g.passed);
  // promote stops before the git gates when the source runs no single commit or no repository is known.
  const checked = r.commit !== undefined && r.repository !== undefined;
  const outcome =
    r.outcome === 'up-to-date'
      ? html`Nothing to promote: ${r.ref} already holds ${commit}.`
      : r.outcome === 'refused'
        ? html`Held by ${failed.length} gate(s): ${failed.map((g) => g.gate).join(', ')}.`
        : html`Every gate passes: <code>groundwork promote ${env.name}</code> would move ${r.ref} to ${commit}
            (${r.ahead} commit(s)).`;
  return html`${title}
    <p data-outcome="${r.outcome}">${outcome}</p>
    ${table(
      ['Gate', 'State', 'What it asks', 'What holds it'],
      r.gates.map(
        (g) =>
          html`<tr data-gate="${g.gate}" data-passed="${String(g.passed)}">
            <th scope="row">${g.gate}</th>
            <td>${gateState(g.passed, checked || !LATE_GATES.includes(g.gate))}</td>
            <td>${GATE_TEXT[g.gate]}</td>
            <td>
              ${
                g.failures.length === 0
                  ? '—'
                  : html`<ul>
                      ${g.failures.map((f) => html`<li>${f.cluster ? html`<strong>${f.cluster}</strong>: ` : ''}${f.message}</li>`)}
                    </ul>`
              }
            </td>
          </tr>`,
      ),
    )}`;
}

/** The gates `promote` checks in git, after it knows the commit and the repository. */
const LATE_GATES: readonly GateName[] = ['FastForward', 'Window', 'Verified'];

/** A gate's state as a badge (classes from the stylesheet, never from data). */
function gateState(passed: boolean, checked: boolean): Html {
  if (!checked) return html`<span class="badge unknown">not checked</span>`;
  return passed
    ? html`<span class="badge healthy">passed</span>`
    : html`<span class="badge degraded">failing</span>`;
}
