import type { ClusterUpdateJson, OperatorPinJson } from '../../report/openshift-status.js';
import { html, type Html } from '../html.js';
import type { DashboardSnapshot } from '../snapshot.js';

// The OpenShift page's view of what the agent decided (`status.clusterUpdate`, `status.operatorPins`
// of the selected PlatformSync). Only renders the published decisions: the approval and the path
// are decided by the agent's hooks, never again here. Every string is text.

/** The selected PlatformSync's published decisions; undefined when it has no status (yet). */
export function publishedDecisions(
  s: DashboardSnapshot,
): { clusterUpdate?: ClusterUpdateJson; operatorPins?: readonly OperatorPinJson[] } | undefined {
  const sync = s.selected === undefined ? undefined : s.syncs[s.selected];
  const status = sync?.status;
  if (!status) return undefined;
  return {
    ...(status.clusterUpdate ? { clusterUpdate: status.clusterUpdate } : {}),
    ...(status.operatorPins ? { operatorPins: status.operatorPins } : {}),
  };
}

/** The update as the agent planned it: each step with its state and why, the next step, the risks. */
export function publishedPath(u: ClusterUpdateJson): Html {
  const verdict = `${u.action}${u.reason ? ` (${u.reason})` : ''}: ${u.message}`;
  return html`<p class="decided">
      Path planned by the agent from ${u.current} to ${u.target}:
      ${u.next ? html`next step <strong data-next="${u.next}">${u.next}</strong>` : 'target reached'}.
      <span data-action="${u.action}">${verdict}</span>
    </p>
    <ol class="path">
      ${u.steps.map(
        (st) =>
          html`<li data-version="${st.to}" data-state="${st.state}">
            <strong>${st.from} → ${st.to}</strong>
            ${st.state}${st.reason ? html`: <span class="why">${st.reason}</span>` : ''}
          </li>`,
      )}
    </ol>
    ${
      u.risks.length
        ? html`<h3>Risks on the path</h3>
            <ul>
              ${u.risks.map(
                (r) =>
                  html`<li data-risk="${r.name}" data-accepted="${r.accepted ? 'yes' : 'no'}">
                    ${r.name} (${r.version}):
                    ${r.accepted ? 'accepted' : html`<span class="blocker">not accepted: blocking</span>`}
                  </li>`,
              )}
            </ul>`
        : ''
    }`;
}

/** Short words for an approval reason, before the decision's own message. */
const WHY: Record<string, string> = {
  AllWanted: 'approved by Groundwork on the way to the pin',
  WantedWithDependencies: 'approved by Groundwork on the way to the pin, with its dependencies',
  BeyondPin: 'beyond the pin',
  Unmanaged: 'not pinned by Groundwork',
  NotReady: 'not ready for approval yet',
  BatchedBeyondPin: 'blocked: batched with a CSV beyond a pin',
  BatchedUnmanaged: 'blocked: batched with an operator Groundwork does not pin',
  ManualForPin: 'blocked: made Manual by a pinned operator in the same namespace',
  Approved: 'approved',
  ApprovedBeyondPin: 'approved beyond the pin (not by Groundwork)',
  Failed: 'failed',
};

/** An InstallPlan of a pinned operator, with the agent's decision and why. */
export function pinnedPlan(p: OperatorPinJson['installPlans'][number]): Html {
  return html`<div data-plan="${p.name}" data-decision="${p.decision}">
    ${p.name}: ${WHY[p.reason] ?? p.decision} <span class="why">(${p.message})</span>
  </div>`;
}
