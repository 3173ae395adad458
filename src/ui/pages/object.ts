import { html, type Html } from '../html.js';
import type { DashboardSnapshot, ObjectDetail } from '../snapshot.js';
import { desiredObjectSection, diffSection } from './desired-section.js';
import { badge, facts, layout, table } from './layout.js';
import { yamlBlock } from './yaml-block.js';

/**
 * One object: its verdict, its drift (field paths the agent reported), its diff with git
 * (`diffSection`), field managers, Events, the desired object (when the agent's desired objects are
 * known) and the live object as YAML (Secret data redacted to keyed hashes before it gets here; `managedFields`
 * shown as a table of managers instead; long objects cut by `yamlBlock`). Pure.
 */
export function objectPage(s: DashboardSnapshot, d: ObjectDetail): Html {
  const { row, live } = d;
  const title = `${row.ref.kind} ${row.ref.namespace ? `${row.ref.namespace}/` : ''}${row.ref.name}`;
  const managers = live?.metadata.managedFields ?? [];
  const drift = s.drift.find((x) => x.id === row.id);
  const body = html` ${facts([
      ['Stage', row.stage],
      ['Health', html`${badge(row.health.status)} ${row.health.reason}: ${row.health.message}`],
      [
        'Drift',
        row.drift
          ? `${row.drift.type}${row.drift.fields.length ? `: ${row.drift.fields.join(', ')}` : ''}`
          : 'none reported',
      ],
    ])}
    ${
      drift
        ? html`<h2>Drifted fields</h2>
            <ul>
              ${drift.fields.map((f) => html`<li><code>${f.path}</code>: live <code>${f.live ?? '(absent)'}</code>${f.git !== undefined ? html`, git <code>${f.git}</code>` : ''}${f.managers.length ? ` written by ${f.managers.join(', ')}` : ''}</li>`)}
            </ul>`
        : ''
    }
    ${diffSection(d, { appliedRevision: s.syncs[s.selected ?? -1]?.status?.lastAppliedRevision })}
    <h2>Field managers</h2>
    ${
      managers.length === 0
        ? html`<p>None recorded.</p>`
        : html`${table(
            ['Manager', 'Operation', 'Subresource', 'Time'],
            managers.map(
              (m) =>
                html`<tr>
                  <td>${m.manager ?? '(unknown)'}</td>
                  <td>${m.operation ?? ''}</td>
                  <td>${m.subresource ?? ''}</td>
                  <td>${m.time ?? ''}</td>
                </tr>`,
            ),
          )}`
    }
    <h2>Events</h2>
    ${
      d.hiddenEvents
        ? html`<p class="problem">
            ${d.hiddenEvents} Event(s) hidden: your Kubernetes RBAC does not let you list events where they
            are.
          </p>`
        : ''
    }
    ${
      d.events.length === 0
        ? html`<p>No Events${d.hiddenEvents ? ' you may see' : ''}.</p>`
        : html`${table(
            ['Last', 'Type', 'Reason', 'Message', { label: 'Count', num: true }, 'From'],
            d.events.map(
              (e) =>
                html`<tr>
                  <td>${e.last}</td>
                  <td>${e.type}</td>
                  <td>${e.reason}</td>
                  <td>${e.note}</td>
                  <td class="num">${e.count}</td>
                  <td>${e.source}</td>
                </tr>`,
            ),
          )}`
    }
    ${desiredObjectSection(d)}
    <h2>Live object</h2>
    ${live ? yamlBlock(live, { whole: html`<code>kubectl get -o yaml</code>` }) : html`<p>Not in the cluster.</p>`}`;
  return layout({ title, current: '/objects', snapshot: s, body });
}
