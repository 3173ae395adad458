import { currentVersion, type ClusterVersionState } from './cluster-state.js';
import type { UpdatePath } from './path.js';
import type { UpdateAction } from './stepper.js';

/** Where one step of the cluster's update path stands. */
export type UpdateStepState = 'done' | 'running' | 'waiting';

/** One `from -> to` step of the path; `reason` says why it runs or waits. */
export interface ClusterUpdateStep {
  readonly from: string;
  readonly to: string;
  readonly state: UpdateStepState;
  readonly reason?: string;
}

/** A conditional-update risk on a step still to take, and whether the target accepts it. */
export interface ClusterUpdateRisk {
  readonly name: string;
  /** The version of the step that carries it. */
  readonly version: string;
  readonly accepted: boolean;
}

/**
 * What the cluster-version stage decided on its last pass, as the agent publishes it
 * (`status.clusterUpdate`): the path with each step's state, the next version to request, the
 * conditional risks on the way, and the stepper's action with its reason.
 */
export interface ClusterUpdateStatus {
  /** The ClusterVersion's name (`version`). */
  readonly clusterVersion: string;
  readonly current: string;
  readonly target: string;
  readonly steps: readonly ClusterUpdateStep[];
  /** The version of the first step not done; absent once the target is reached. */
  readonly next?: string;
  readonly action: UpdateAction['action'];
  /** The action's reason (`UpdateInProgress`, `StepNotOffered`, `RiskNotAccepted`, ...); none for done and set. */
  readonly reason?: string;
  readonly message: string;
  readonly risks: readonly ClusterUpdateRisk[];
}

/** How many completed steps of the cluster's history the status keeps (the newest). */
export const DONE_STEPS = 5;

interface ClusterUpdateInput {
  readonly name: string;
  readonly cv: ClusterVersionState;
  /** The target version (the ClusterVersion's `groundwork.io/target-version`). */
  readonly target: string;
  readonly acceptedRisks: readonly string[];
  /** The path the hook planned from the current version (the remaining steps only). */
  readonly path: UpdatePath;
  /** The stepper's action on this pass. */
  readonly action: UpdateAction;
}

/**
 * The published view of an update, from what the hook decided. Pure. Steps:
 * - `done`: the last `DONE_STEPS` completed steps of the ClusterVersion's history (each from the
 *   version before it), since the planned path only holds what remains;
 * - the first remaining step is `running` while an update is in flight (`history[0]` Partial) or
 *   just requested (`set-desired-update`, or a `desiredUpdate` the CVO has not taken yet), else
 *   `waiting`; its reason is the action's message (why it runs or waits);
 * - every later step is `waiting` for the one before it. A path planned from the live
 *   `availableUpdates` alone ends at a hop short of the target: the rest is one `waiting` step,
 *   planned once the update service offers it. A refused path is one `waiting` step to the target
 *   with the refusal.
 * It does not decide anything the stepper did not: no approval, no request.
 */
export function clusterUpdateStatus(input: ClusterUpdateInput): ClusterUpdateStatus {
  const { cv, target, path, action } = input;
  const history = cv.status?.history ?? [];
  const current = currentVersion(cv)?.version ?? '';
  const latest = history[0];
  const done = doneSteps(cv);
  const reached = action.action === 'done' && current === target;
  // The remaining steps; `why` is set on those that wait for something other than the step before.
  const remaining: { from: string; to: string; why?: string }[] = [];
  if (!reached) {
    if (path.ok) remaining.push(...path.steps.map((s) => ({ from: s.from, to: s.to })));
    const end = remaining.at(-1)?.to ?? current;
    if (end !== target)
      remaining.push({
        from: end,
        to: target,
        ...(path.ok ? { why: `planned once the update service offers a step from ${end}` } : {}),
      });
  }
  const inFlight = latest?.state === 'Partial';
  if (inFlight && remaining[0]?.to !== latest.version) {
    remaining.unshift({ from: current, to: latest.version });
    if (remaining[1]) remaining[1] = { ...remaining[1], from: latest.version };
  }
  const requested =
    action.action === 'set-desired-update' ||
    (action.action === 'wait' && action.reason === 'DesiredUpdatePending' && !!cv.spec?.desiredUpdate);
  const first = inFlight || requested ? 'running' : 'waiting';
  const steps: ClusterUpdateStep[] = [
    ...done,
    ...remaining.map(({ why, ...s }, i): ClusterUpdateStep => {
      if (i === 0) return { ...s, state: first, reason: stepReason(action) };
      const before = remaining[i - 1]!;
      return { ...s, state: 'waiting', reason: why ?? `after the step ${before.from} -> ${before.to}` };
    }),
  ];
  const accepted = new Set(input.acceptedRisks);
  const risks = riskNames(
    cv,
    path,
    remaining.map((s) => s.to),
  ).map((r) => ({
    ...r,
    accepted: accepted.has(r.name),
  }));
  return {
    clusterVersion: input.name,
    current,
    target,
    steps,
    ...(remaining[0] ? { next: remaining[0].to } : {}),
    action: action.action,
    ...('reason' in action ? { reason: action.reason } : {}),
    message: action.message,
    risks,
  };
}

function stepReason(action: UpdateAction): string {
  switch (action.action) {
    case 'set-desired-update':
      return `requested: spec.desiredUpdate ${action.desiredUpdate.version} (${action.message})`;
    case 'done':
      return action.message;
    default:
      return `${action.action === 'blocked' ? 'blocked' : 'waiting'} (${action.reason}): ${action.message}`;
  }
}

/** The newest completed steps of the history, oldest first: each Completed entry from the entry before it. */
function doneSteps(cv: ClusterVersionState): ClusterUpdateStep[] {
  const chronological = [...(cv.status?.history ?? [])].reverse();
  const steps: ClusterUpdateStep[] = [];
  chronological.forEach((h, i) => {
    const before = chronological[i - 1];
    if (h.state === 'Completed' && before && before.version !== h.version)
      steps.push({
        from: before.version,
        to: h.version,
        state: 'done',
        ...(h.completionTime ? { reason: `completed ${h.completionTime}` } : {}),
      });
  });
  return steps.slice(-DONE_STEPS);
}

/** Risk names on the steps still to take: the graph's conditional edges, the live conditionalUpdates, a refusal's. */
function riskNames(
  cv: ClusterVersionState,
  path: UpdatePath,
  versions: readonly string[],
): { name: string; version: string }[] {
  const out = new Map<string, { name: string; version: string }>();
  const add = (name: string, version: string) => out.set(`${version}\u0000${name}`, { name, version });
  if (path.ok) for (const s of path.steps) for (const r of s.conditional ?? []) add(r, s.to);
  else for (const r of path.risks ?? []) add(r, path.to);
  for (const u of cv.status?.conditionalUpdates ?? [])
    if (versions.includes(u.release.version)) for (const r of u.risks) add(r.name, u.release.version);
  return [...out.values()];
}
