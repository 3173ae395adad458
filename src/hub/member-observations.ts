import { matchesLabelSelector, type LabelSelector } from '../core/label-selector.js';
import type { ClusterObservation, ObservedSync } from '../fleet/gates.js';
import type { Environment } from '../project/environments.js';
import type { SyncStatusJson } from '../report/sync-status.js';
import { ANNOTATIONS, LABELS } from './hub-names.js';
import type { FleetMemberObject, MemberReport } from './member-schema.js';
import { printable } from './rollout-schema.js';

/** The environment the hub placed a member in: its spec, else its environment label. */
export const memberEnvironment = (m: FleetMemberObject): string | undefined =>
  m.spec.environment ?? m.labels[LABELS.environment];

/** The context column of a hub-read cluster: there is no kube context, only the hub. */
const HUB_CONTEXT = '(hub)';

/**
 * The source environment's FleetMembers as the observations promotion's gates read (`checkSource`),
 * so the gates are one decision over clusters read either way. Only members placed in `source`
 * count, and with a `selector` (`promote --hub --selector`) only those whose labels match it: a
 * selection matching no member leaves the gates nothing, so they block. A member the hub does not judge `Reachable` is an observation with an error (its last
 * report kept, so the Reachable gate names it); a member without a readable report, or whose report
 * names no overlay, stands in every overlay of `source` with its problem, so the Ready gate names it
 * instead of it being left out. Report text is made printable (no control characters). Pure.
 */
export function memberObservations(input: {
  readonly members: readonly FleetMemberObject[];
  readonly source: Environment;
  readonly platform: string;
  /** Only members whose labels match (the hub's labels: region, site, ... from the token). */
  readonly selector?: LabelSelector;
}): ClusterObservation[] {
  return input.members
    .filter((m) => memberEnvironment(m) === input.source.name)
    .filter((m) => input.selector === undefined || matchesLabelSelector(m.labels, input.selector))
    .map((m) => {
      const reachability = m.labels[LABELS.reachability] ?? 'Unknown';
      const lastSeen = m.annotations[ANNOTATIONS.lastSeen];
      const error =
        reachability === 'Reachable'
          ? undefined
          : `${printable(reachability).slice(0, 64)} on the hub${lastSeen ? `: last heartbeat ${printable(lastSeen).slice(0, 40)}` : ': no heartbeat judged yet'}`;
      return {
        cluster: m.name,
        context: HUB_CONTEXT,
        ...(error ? { error } : {}),
        syncs: syncsOf(m, input.source, input.platform),
      };
    });
}

function syncsOf(m: FleetMemberObject, source: Environment, platform: string): ObservedSync[] {
  const r = m.report;
  if (!r?.overlay) {
    const problem = m.reportProblem
      ? `its report cannot be read: ${printable(m.reportProblem)}`
      : r
        ? 'its report names no overlay'
        : 'it has not reported yet';
    return source.overlays.map((overlay) => ({
      name: `${platform}-${overlay}`,
      namespace: m.namespace,
      overlay,
      repository: { url: '' },
      status: undefined,
      statusProblem: problem,
    }));
  }
  return [
    {
      name: `${r.platform ?? platform}-${r.overlay}`,
      namespace: m.namespace,
      overlay: r.overlay,
      repository: {
        url: r.source?.url ?? '',
        ...(r.source?.ref ? { branch: r.source.ref } : {}),
        ...(r.source?.path ? { path: r.source.path } : {}),
      },
      status: statusOf(r),
    },
  ];
}

/** The report as the PlatformSync status fields the gates read: Ready, health, drift, pending, revision. */
function statusOf(r: MemberReport): SyncStatusJson {
  return {
    conditions: [
      {
        type: 'Ready',
        status: r.ready.status,
        // Shown in the gate's message, never branched on: the report's reason is open CamelCase.
        reason: r.ready.reason as SyncStatusJson['conditions'][number]['reason'],
        message: printable(r.ready.message ?? ''),
        lastTransitionTime: r.ready.since ?? '',
        observedGeneration: 0,
      },
    ],
    ...(r.revision?.applied ? { lastAppliedRevision: r.revision.applied } : {}),
    ...(r.revision?.attempted ? { lastAttemptedRevision: r.revision.attempted } : {}),
    ...(r.lastAppliedTime ? { lastReconcileTime: r.lastAppliedTime } : {}),
    ...(r.health
      ? {
          health: {
            status: r.health.status,
            reason: r.health.reason,
            ...(r.health.message ? { message: printable(r.health.message) } : {}),
          },
        }
      : {}),
    ...(r.drift
      ? {
          drift: {
            drifted: r.drift.count,
            missing: 0,
            modified: 0,
            extra: 0,
            items: (r.drift.items ?? []).map((i) => ({
              object: printable(i.object),
              type: i.type,
              fields: [],
            })),
          },
        }
      : {}),
    ...(r.pending?.length
      ? { pending: r.pending.map((p) => ({ stage: printable(p.stage), message: printable(p.message) })) }
      : {}),
    ...(r.suspended ? { suspended: { reason: 'suspended (reported to the hub)' } } : {}),
  };
}
