import {
  currentVersion,
  readClusterOperators,
  readClusterVersion,
  upgradeableOf,
  type ClusterVersionState,
} from '../../cluster-version/cluster-state.js';
import { ANNOTATIONS } from '../../core/annotations.js';
import { errorMessage } from '../../core/errors.js';
import { parseWindows, windowState } from '../../core/window.js';
import type { K8sObject } from '../../core/object.js';
import { assessClusterUpdate, assessHealth } from '../../health/index.js';
import { poolProgress } from '../../health/machine-config-pool.js';
import { machineConfigPoolSchema } from '../../health/machine-config-pool-schema.js';
import { toInstallPlan, toSubscription } from '../../olm/olm-objects.js';
import { html, type Html } from '../html.js';
import type { DashboardSnapshot, OpenShiftView } from '../snapshot.js';
import type { ClusterUpdateJson, OperatorPinJson } from '../../report/openshift-status.js';
import { pinnedPlan, publishedDecisions, publishedPath } from './openshift-decisions.js';
import { badge, facts, layout, table } from './layout.js';

/**
 * OpenShift: the cluster update (`assessClusterUpdate`: target, from, verdict, each operator and
 * pool), the version history and the updates the cluster offers with their risks, ClusterOperators,
 * MachineConfigPools with machine counts (`poolProgress`) and their maintenance windows at the
 * snapshot's time (`windowState`: open until, or the next opening), and OLM operators with their CSV and
 * InstallPlans (`toSubscription`, `toInstallPlan`, `assessHealth`). Reuses the pure decision code;
 * an object that does not parse is named with the problem, never guessed at. Pure.
 */
export function openshiftPage(s: DashboardSnapshot): Html {
  const o = s.openshift;
  const decided = publishedDecisions(s);
  const body = html`${updateSection(o, decided?.clusterUpdate, s.hidden?.openshift.includes('ClusterVersion'))}${operatorsSection(o)}${poolsSection(o, s.at)}${olmSection(o, decided)}`;
  return layout({ title: 'OpenShift', current: '/openshift', snapshot: s, body });
}

function updateSection(o: OpenShiftView, published: ClusterUpdateJson | undefined, hidden = false): Html {
  if (!o.clusterVersion)
    return html`<section>
      <h2>Cluster version</h2>
      <p>
        ${
          hidden
            ? 'Your Kubernetes RBAC does not let you get the ClusterVersion.'
            : 'This cluster serves no ClusterVersion (not OpenShift).'
        }
      </p>
    </section>`;
  let cv: ClusterVersionState;
  try {
    cv = readClusterVersion(o.clusterVersion);
  } catch (err) {
    return html`<section>
      <h2>Cluster version</h2>
      <p class="problem">${errorMessage(err)}</p>
    </section>`;
  }
  const update = assessClusterUpdate({
    clusterVersion: o.clusterVersion,
    clusterOperators: o.clusterOperators ?? [],
    machineConfigPools: o.pools ?? [],
    now: new Date(),
  });
  let upgradeable: Html = html`—`;
  try {
    const u = upgradeableOf(cv, readClusterOperators(o.clusterOperators ?? []));
    upgradeable = html`${badge(u.status)}
    ${u.reason ?? ''}${u.blockers.map((b) => html` <span class="blocker">${b.clusterOperator}: ${b.reason}</span>`)}`;
  } catch (err) {
    upgradeable = html`${errorMessage(err)}`;
  }
  return html`<section aria-labelledby="cv-h">
    <h2 id="cv-h">Cluster version</h2>
    ${facts([
      ['Channel', cv.spec?.channel],
      ['Current', currentVersion(cv)?.version],
      ['Target', update.target],
      ['Update', html`${badge(update.verdict.status)} ${update.verdict.reason}: ${update.verdict.message}`],
      ['Upgradeable', upgradeable],
    ])}
    <h3>Path</h3>
    ${
      published && published.clusterVersion === o.clusterVersion.metadata.name
        ? publishedPath(published)
        : livePath(cv, update)
    }
    <h3>Updates offered</h3>
    <ul>
      ${(cv.status?.availableUpdates ?? []).map((u) => html`<li>${u.version} (recommended)</li>`)}${(
        cv.status?.conditionalUpdates ?? []
      ).map(
        (u) =>
          html`<li>
            ${u.release.version}:
            ${u.risks.map((r) => html`<span class="risk">${r.name}: ${r.message}</span> `)}${(u.conditions ?? []).map((c) => html`(${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''})`)}
          </li>`,
      )}
    </ul>
  </section>`;
}

/** The path as the live ClusterVersion shows it (no agent decision published): its history and the target. */
function livePath(cv: ClusterVersionState, update: { updating: boolean; target: string | undefined }): Html {
  const history = cv.status?.history ?? [];
  return html`<ol class="path">
    ${[...history].reverse().map((h, i, all) => {
      // The newest Partial entry is the update under way; an older one was left for another.
      const state = h.state === 'Completed' ? 'done' : i === all.length - 1 ? 'running' : 'not completed';
      return html`<li data-version="${h.version}" data-state="${state}">
        <strong>${h.version}</strong>
        ${state}${h.completionTime ? html` <time datetime="${h.completionTime}">${h.completionTime}</time>` : ''}
      </li>`;
    })}${
      update.updating && !history.some((h) => h.version === update.target)
        ? html`<li data-version="${update.target}" data-state="waiting">
            <strong>${update.target}</strong> waiting
          </li>`
        : ''
    }
  </ol>`;
}

function operatorsSection(o: OpenShiftView): Html {
  if (!o.clusterOperators) return html``;
  return html`<section aria-labelledby="co-h">
    <h2 id="co-h">ClusterOperators</h2>
    ${table(
      ['Name', 'Health', 'Reason', 'Message'],
      [...o.clusterOperators].sort(byName).map((co) => verdictRow(co)),
    )}
  </section>`;
}

/**
 * A pool's maintenance windows at `now`, from the annotation Groundwork writes on it: none (updates
 * may start at any time), open until when, or closed and when the next one opens. An annotation
 * that does not parse is said to be invalid (the engine keeps the pool paused), its value not echoed.
 */
function windowCell(pool: K8sObject, now: Date): Html {
  const annotation = pool.metadata.annotations?.[ANNOTATIONS.maintenanceWindows];
  if (annotation === undefined) return html`none`;
  const parsed = parseWindows(annotation);
  if (!parsed.ok)
    return html`<span class="problem"
      >invalid ${ANNOTATIONS.maintenanceWindows} annotation: kept paused</span
    >`;
  return html`${windowState(parsed.windows, now).reason}`;
}

function poolsSection(o: OpenShiftView, now: Date): Html {
  if (!o.pools) return html``;
  return html`<section aria-labelledby="mcp-h">
    <h2 id="mcp-h">MachineConfigPools</h2>
    ${table(
      [
        'Pool',
        'Health',
        { label: 'Machines', num: true },
        { label: 'Updated', num: true },
        { label: 'Ready', num: true },
        { label: 'Unavailable', num: true },
        { label: 'Degraded', num: true },
        'Paused',
        'Maintenance window',
      ],
      [...o.pools].sort(byName).map((p) => {
        const parsed = machineConfigPoolSchema.safeParse(p);
        const h = assessHealth(p);
        if (!parsed.success)
          return html`<tr>
            <td>${p.metadata.name}</td>
            <td>${badge(h.status)} ${h.message}</td>
            <td colspan="6">—</td>
            <td>${windowCell(p, now)}</td>
          </tr>`;
        const m = poolProgress(parsed.data);
        return html`<tr data-pool="${p.metadata.name}">
          <td>${p.metadata.name}</td>
          <td>${badge(h.status)} ${h.reason}</td>
          <td class="num">${m.machines}</td>
          <td class="num">${m.updated}</td>
          <td class="num">${m.ready}</td>
          <td class="num">${m.unavailable}</td>
          <td class="num">${m.degraded}</td>
          <td>${m.paused ? 'yes' : 'no'}</td>
          <td>${windowCell(p, now)}</td>
        </tr>`;
      }),
    )}
  </section>`;
}

/**
 * `decided`: the selected PlatformSync's published decisions. With them, a Subscription the agent
 * pins shows its pin and each of its InstallPlans says why it waits (the agent's decision); an
 * unapproved Manual plan of one it does not pin is said to be left to the user.
 */
function olmSection(
  o: OpenShiftView,
  decided: { operatorPins?: readonly OperatorPinJson[] } | undefined,
): Html {
  if (!o.subscriptions) return html``;
  const pins = new Map((decided?.operatorPins ?? []).map((p) => [p.subscription, p] as const));
  const csvs = new Map(
    (o.csvs ?? []).map((c) => [`${c.metadata.namespace ?? ''}/${c.metadata.name}`, c] as const),
  );
  return html`<section aria-labelledby="olm-h">
    <h2 id="olm-h">Operators</h2>
    ${table(
      ['Subscription', 'Package / channel', 'Health', 'Installed CSV', 'Pin', 'CSV health', 'InstallPlans'],
      [...o.subscriptions].sort(byName).map((raw) => {
        const h = assessHealth(raw);
        let sub;
        try {
          sub = toSubscription(raw);
        } catch (err) {
          return html`<tr>
            <td>${raw.metadata.namespace}/${raw.metadata.name}</td>
            <td colspan="6">${errorMessage(err)}</td>
          </tr>`;
        }
        const ns = sub.metadata.namespace ?? '';
        const installed = sub.status?.installedCSV;
        const csv = installed ? csvs.get(`${ns}/${installed}`) : undefined;
        const pin = pins.get(`${ns}/${sub.metadata.name}`);
        const plans = (o.installPlans ?? [])
          .filter((p) => p.metadata.namespace === ns)
          .flatMap((p) => planCell(p, sub.status?.currentCSV ?? installed, { pin, decided: !!decided }));
        return html`<tr>
          <td>${ns}/${sub.metadata.name}</td>
          <td>${sub.spec.name} / ${sub.spec.channel ?? 'default'}</td>
          <td>${badge(h.status)} ${h.reason}</td>
          <td>${installed ?? '—'}</td>
          <td data-pin="${pin?.pin ?? ''}">${pin ? pin.pin : '—'}</td>
          <td>${csv ? html`${badge(assessHealth(csv).status)} ${assessHealth(csv).reason}` : '—'}</td>
          <td>${plans.length ? plans : '—'}</td>
        </tr>`;
      }),
    )}
  </section>`;
}

/**
 * An InstallPlan for `csv` (in the subscription's namespace): approved or waiting, its phase and
 * verdict. A plan the agent decided about (`pin`) says the decision and why; with a published status
 * (`decided`) and no pin, an unapproved Manual plan is left to the user.
 */
function planCell(
  raw: K8sObject,
  csv: string | undefined,
  opts: { pin: OperatorPinJson | undefined; decided: boolean },
): Html[] {
  try {
    const p = toInstallPlan(raw);
    const published = opts.pin?.installPlans.find((ip) => ip.name === p.metadata.name);
    if (published) return [pinnedPlan(published)];
    if (csv && !p.spec.clusterServiceVersionNames.includes(csv)) return [];
    if (opts.decided && !opts.pin && !p.spec.approved && p.spec.approval === 'Manual')
      return [
        html`<div data-plan="${p.metadata.name}" data-decision="unmanaged">
          ${p.metadata.name}: Manual: not pinned by Groundwork, approve it yourself
        </div>`,
      ];
    const h = assessHealth(raw);
    return [
      html`<div>
        ${p.metadata.name}: ${p.spec.approved ? 'approved' : `waiting for approval (${p.spec.approval})`},
        ${p.status?.phase ?? 'no phase'} ${badge(h.status)}
      </div>`,
    ];
  } catch (err) {
    return [html`<div>${raw.metadata.name}: ${errorMessage(err)}</div>`];
  }
}

function verdictRow(obj: K8sObject): Html {
  const h = assessHealth(obj);
  return html`<tr>
    <td>${obj.metadata.name}</td>
    <td>${badge(h.status)}</td>
    <td>${h.reason}</td>
    <td>${h.message}</td>
  </tr>`;
}

function byName(a: K8sObject, b: K8sObject): number {
  return `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
    `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
  );
}
