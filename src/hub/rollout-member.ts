import { parseRevision } from '../core/revision.js';
import { windowState, type MaintenanceWindow } from '../core/window.js';
import { LABELS } from './hub-names.js';
import type { FleetMemberObject, MemberReport } from './member-schema.js';
import type { RolloutSpec } from './rollout-schema.js';

// What one member's report and labels say about a rollout: whether it succeeded at the rollout's
// commit, failed there, is still on its way, or is held back by a gate. Pure.

/** Ready=False reasons that do not pass on their own: the member failed the revision at once. */
const STALLING = new Set([
  'SynthFailed',
  'VerificationFailed',
  'PlanFailed',
  'PruneRefused',
  'DependencyUnresolvable',
  'HealthCheckFailed',
  // The agent refused the release itself (not a commit of its ref, or unsigned where verified).
  'ReleaseRefused',
]);

/** Where a released member stands at the rollout's commit. */
export type MemberOutcome =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'failed'; readonly reason: string; readonly message: string }
  | { readonly kind: 'waiting'; readonly reason: string; readonly message: string };

const commitOf = (rev: string | undefined) => parseRevision(rev)?.commit;

/**
 * The member's outcome for commit `sha`, from its report alone. Succeeded: the report names `sha`
 * as applied, Ready=True, Healthy (or no health), no drift and no stage wait: the report of the
 * revision itself, so a status left over from the previous revision never counts (Argo CD
 * RollingSync judged steps on stale status, argo-cd#29410). Failed: at `sha`, Ready=False for a
 * reason that does not pass on its own, or health Degraded or Missing. Anything else waits (the
 * progress deadline, judged by the caller, turns a long wait into a failure).
 */
export function memberOutcome(report: MemberReport | undefined, sha: string): MemberOutcome {
  if (!report) return { kind: 'waiting', reason: 'NoReport', message: 'the member has not reported yet' };
  const applied = commitOf(report.revision?.applied) === sha;
  const attempted = commitOf(report.revision?.attempted) === sha;
  const ready = report.ready;
  if ((applied || attempted) && ready.status === 'False' && STALLING.has(ready.reason))
    return { kind: 'failed', reason: ready.reason, message: ready.message ?? ready.reason };
  if (applied && (report.health?.status === 'Degraded' || report.health?.status === 'Missing'))
    return {
      kind: 'failed',
      reason: 'HealthCheckFailed',
      message: `${report.health.status} (${report.health.reason})${report.health.message ? `: ${report.health.message}` : ''}`,
    };
  if (!applied)
    return {
      kind: 'waiting',
      reason: attempted ? ready.reason : 'NotApplied',
      message: attempted
        ? `applying: Ready=${ready.status} ${ready.reason}`
        : `applied ${report.revision?.applied ?? 'nothing'} so far`,
    };
  if (ready.status !== 'True')
    return { kind: 'waiting', reason: ready.reason, message: ready.message ?? `Ready=${ready.status}` };
  if (report.health && report.health.status !== 'Healthy')
    return { kind: 'waiting', reason: 'WaitingForHealth', message: `health ${report.health.status}` };
  if ((report.drift?.count ?? 0) > 0)
    return { kind: 'waiting', reason: 'DriftDetected', message: `${report.drift!.count} object(s) drifted` };
  if ((report.pending?.length ?? 0) > 0)
    return { kind: 'waiting', reason: 'Pending', message: report.pending!.map((p) => p.stage).join(', ') };
  return { kind: 'succeeded' };
}

/** Why a member is not released now, and when that may change. */
export interface MemberHold {
  readonly reason:
    | 'Unreachable'
    | 'Suspended'
    | 'ClusterVersionUpdating'
    | 'PoolUpdating'
    | 'OutsideWindow'
    | 'UnknownWindow';
  readonly message: string;
  /** When the hold lifts by itself (a window opens); undefined: when the member's report changes. */
  readonly until?: number;
}

/** The windows that apply to a member: the named one its label picks, else the environment's. */
function windowsOf(
  member: FleetMemberObject,
  spec: RolloutSpec,
): { windows: readonly MaintenanceWindow[] } | { unknown: string } {
  const name = spec.windowLabel ? member.labels[spec.windowLabel] : undefined;
  if (name === undefined) return { windows: spec.defaultWindows ?? [] };
  const found = spec.windows?.find((w) => w.name === name);
  return found ? { windows: found.windows } : { unknown: name };
}

/**
 * The gate that holds `member` back from `spec`'s revision now, or undefined. Always: the hub
 * judges it Unreachable (its release would wait unseen), or its agent is suspended. When the
 * revision changes ClusterVersion or MachineConfigs (`spec.changes`): a version update in progress,
 * a MachineConfigPool updating, or outside the member's maintenance window (the named window its
 * `spec.windowLabel` label picks, else the environment's windows; an unknown name never opens).
 */
export function memberHold(
  member: FleetMemberObject,
  spec: RolloutSpec,
  now: number,
): MemberHold | undefined {
  if (member.labels[LABELS.reachability] === 'Unreachable')
    return { reason: 'Unreachable', message: 'the hub sees no heartbeat' };
  const report = member.report;
  if (report?.suspended) return { reason: 'Suspended', message: 'its agent is suspended' };
  if (!spec.changes?.length) return undefined;
  const version = report?.openshift?.version;
  if (version?.progressing)
    return {
      reason: 'ClusterVersionUpdating',
      message: `a version update is in progress (${version.current}${version.target ? ` to ${version.target}` : ''})`,
    };
  const updating = report?.openshift?.pools?.filter((p) => p.updating || p.updated < p.machines) ?? [];
  if (updating.length > 0)
    return {
      reason: 'PoolUpdating',
      message:
        `MachineConfigPool ${updating.map((p) => `${p.name} (${p.updated}/${p.machines} updated)`).join(', ')} is updating`.slice(
          0,
          160,
        ),
    };
  const windows = windowsOf(member, spec);
  if ('unknown' in windows)
    return {
      reason: 'UnknownWindow',
      message: `its label ${spec.windowLabel}=${windows.unknown} names no window of the rollout`,
    };
  const state = windowState(windows.windows, new Date(now));
  if (!state.open)
    return {
      reason: 'OutsideWindow',
      message: state.reason.slice(0, 160),
      ...(state.next ? { until: state.next.getTime() } : {}),
    };
  return undefined;
}
