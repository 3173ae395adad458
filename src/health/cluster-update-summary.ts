import type { OperatorGrace } from './operator-grace.js';
import { verdict, worst, type HealthStatus, type HealthVerdict, type ObjectVerdict } from './types.js';

/** Reasons of the cluster update roll-up, a closed vocabulary, worst first. */
export type ClusterUpdateReason =
  | 'ClusterOperatorsDegraded'
  | 'MachineConfigPoolsDegraded'
  | 'ClusterVersionDegraded'
  | 'StatusUnknown'
  | 'ClusterOperatorsWarning'
  | 'PoolsPaused'
  | 'Updating'
  | 'Progressing'
  | 'AtDesiredVersion';

/** The per-object verdicts of an update, already seen in the update's view. */
interface ClusterUpdateParts {
  clusterVersion: ObjectVerdict;
  operators: readonly ObjectVerdict[];
  pools: readonly ObjectVerdict[];
  target: string;
  from: string | undefined;
  updating: boolean;
  /**
   * Operators whose own verdict is Degraded, with their condition's age against oc's thresholds.
   * One below its error level counts as Progressing in the roll-up. @default none
   */
  graced?: ReadonlyMap<string, OperatorGrace>;
}

/**
 * Rolls an update's per-object verdicts into one: the worst state, a `ClusterUpdateReason`, and a
 * message that names what holds the update: degraded operators and pools first, then paused pools
 * (the administrator must unpause them), then what is still progressing. Operators still within
 * oc's grace (`parts.graced`) do not make it Degraded: past the warning threshold the reason is
 * `ClusterOperatorsWarning`, and the message gives each one's time left.
 */
export function summarizeClusterUpdate(
  parts: ClusterUpdateParts,
): HealthVerdict & { reason: ClusterUpdateReason } {
  const { clusterVersion: cv, pools, target, from, updating } = parts;
  const graced = parts.graced ?? new Map<string, OperatorGrace>();
  const withinGrace = (v: ObjectVerdict) => graced.get(v.subject)?.level !== 'error' && graced.has(v.subject);
  // Operators within the grace count as Progressing in the roll-up; their own verdicts stay Degraded.
  const operators = parts.operators.map((v) =>
    withinGrace(v) ? { ...v, status: 'Progressing' as const, reason: 'WithinGrace' } : v,
  );
  const status = worst([cv, ...operators, ...pools].map((v) => v.status));
  const subject = updating
    ? `the update to ${target}${from && from !== target ? ` from ${from}` : ''}`
    : `the cluster at ${target}`;
  const result = (reason: ClusterUpdateReason, message: string) => ({
    ...verdict(status, reason, message),
    reason,
  });

  if (status === 'Degraded') {
    const cos = names(operators, 'Degraded');
    const mcps = names(pools, 'Degraded');
    const found = [
      cos && `cluster operators ${cos} are degraded or unavailable`,
      mcps && `machine config pools ${mcps} are degraded`,
      cv.status === 'Degraded' && `${cv.subject}: ${cv.message}`,
    ].filter((p): p is string => !!p);
    const reason = cos
      ? 'ClusterOperatorsDegraded'
      : mcps
        ? 'MachineConfigPoolsDegraded'
        : 'ClusterVersionDegraded';
    return result(reason, `${subject} is ${updating ? 'failing' : 'degraded'}: ${found.join('; ')}`);
  }
  if (status === 'Unknown' || status === 'Missing') {
    const unknown = [cv, ...operators, ...pools].filter((v) => v.status === status);
    return result('StatusUnknown', `${subject} cannot be judged: ${unknown.map(describe).join('; ')}`);
  }
  if (status === 'Healthy') {
    return result(
      'AtDesiredVersion',
      `the cluster runs ${target}: ${operators.length} cluster operators available, ${pools.length} machine config pools updated`,
    );
  }

  const paused = pools.filter((v) => v.reason === 'PoolPaused' || v.reason === 'Paused');
  const awaiting = operators.filter((v) => v.reason === 'AwaitingUpdate').length;
  const moving = names(
    operators,
    'Progressing',
    (v) => v.reason !== 'AwaitingUpdate' && v.reason !== 'WithinGrace',
  );
  const held = operators.filter((v) => v.reason === 'WithinGrace').map((v) => graced.get(v.subject)!);
  const found = [
    ...held.map((g) => `cluster operator ${g.message}`),
    ...paused.map(describe),
    cv.status === 'Progressing' && describe(cv),
    awaiting > 0 && `${awaiting} of ${operators.length} cluster operators not yet at ${target}`,
    moving && `cluster operators ${moving} are progressing`,
    ...pools.filter((v) => v.status === 'Progressing').map(describe),
  ].filter((p): p is string => !!p);
  const reason = held.some((g) => g.level === 'warning')
    ? 'ClusterOperatorsWarning'
    : paused.length > 0
      ? 'PoolsPaused'
      : updating
        ? 'Updating'
        : 'Progressing';
  const state = status === 'Suspended' ? 'is held' : 'is in progress';
  return result(reason, `${subject} ${state}: ${found.join('; ')}`);
}

function describe(v: ObjectVerdict): string {
  return `${v.subject}: ${v.message}`;
}

/** Comma-separated names (without kind) of the verdicts in `status`, or `''` when none. */
function names(
  list: readonly ObjectVerdict[],
  status: HealthStatus,
  keep: (v: ObjectVerdict) => boolean = () => true,
) {
  return list
    .filter((v) => v.status === status && keep(v))
    .map((v) => v.subject.slice(v.subject.lastIndexOf('/') + 1))
    .join(', ');
}
