import {
  type ClusterOperatorState,
  type ClusterVersionState,
  conditionOf,
  currentVersion,
  previousVersion,
  readClusterOperators,
  readClusterVersion,
  upgradeableOf,
} from './cluster-state.js';
import type { Condition } from '../core/object.js';
import type { UpdatePath, UpdatePathFound, UpdatePathRefusal } from './path.js';
import { operatorGrace, type OperatorGrace } from '../health/operator-grace.js';
import type { TargetRisk } from './target-check.js';
import { sameImage } from './version.js';

/** Where the cluster should end up. */
export interface UpdateTarget {
  /** The channel the path was planned in; the cluster's `spec.channel` must match. */
  readonly channel?: string;
  readonly version: string;
  /** Explicit payload for the final step (digest-pinned pullspec). */
  readonly image?: string;
  /** Risk names accepted for conditional updates. @default [] */
  readonly acceptedRisks?: readonly string[];
  /**
   * Seconds `Failing=True` may last during an update before it counts as failed, when no
   * ClusterOperator condition explains it (those follow oc's thresholds, `OPERATOR_GRACE_MS`).
   * @default 600
   */
  readonly failingGraceSeconds?: number;
}

/** The default of `UpdateTarget.failingGraceSeconds`. */
const DEFAULT_FAILING_GRACE_SECONDS = 600;

type WaitReason =
  | 'UpdateInProgress'
  | 'UpdateFailingTransient'
  | 'DesiredUpdatePending'
  | 'ClusterNotAvailable'
  | 'NoHistory'
  | 'StepNotOffered'
  | 'UpgradeableFalse';

/** A refused path's own reason, or why the live cluster cannot take the next step. */
type BlockedReason =
  | UpdatePathRefusal
  | TargetRisk
  | 'UpdateFailing'
  | 'OperatorsFailing'
  | 'InvalidClusterVersion'
  | 'ReleaseNotAccepted'
  | 'ChannelMismatch'
  | 'OffPath';

/** The one thing the agent should do next; a closed, discriminated union. */
export type UpdateAction =
  | {
      readonly action: 'set-desired-update';
      readonly desiredUpdate: { version: string; image?: string };
      readonly message: string;
    }
  | { readonly action: 'wait'; readonly reason: WaitReason; readonly message: string }
  | { readonly action: 'done'; readonly message: string }
  | { readonly action: 'blocked'; readonly reason: BlockedReason; readonly message: string };

interface NextUpdateActionInput {
  /** The live ClusterVersion (validated here; a `List` of one is accepted). */
  readonly clusterVersion: unknown;
  /** The live ClusterOperators, as an array or a `List`. */
  readonly clusterOperators: unknown;
  readonly target: UpdateTarget;
  /** The planned path (`planUpdatePath`), usually planned from the version the cluster started at. */
  readonly path: UpdatePath;
  /** The time to judge the ages of `Failing` and the operators' conditions against. @default the current time */
  readonly now?: Date;
  /**
   * How to number steps in messages when `path` is the rest of a longer walk: `done` steps were
   * taken before it, and `towards` is the walk's real target when the path stops short of it (a
   * hop planned from the live `availableUpdates` alone). @default { done: 0 }: `step i/n` of `path`
   */
  readonly walk?: { readonly done: number; readonly towards?: string };
}

/**
 * Decides the next update action, one `desiredUpdate` step at a time. Pure: it never writes; the
 * agent applies `set-desired-update` and calls again on the next loop. In order:
 * 0. `Invalid=True`: the CVO ignores the spec until it is fixed: `blocked`;
 * 1. an update in flight (`history[0]` Partial): see `inFlight`;
 * 2. a `spec.desiredUpdate` the CVO has not taken yet: `blocked` if ReleaseAccepted=False, else `wait`;
 * 3. the cluster (ClusterVersion and every ClusterOperator) must be Available, else `wait`;
 * 4. current version (most recent Completed history entry) = target: `done`;
 * 5. otherwise the path step starting at the current version, checked like the CVO would: channel,
 *    Upgradeable=False for a minor step, the step must be one the cluster offers (in
 *    `availableUpdates`, or in `conditionalUpdates` with every risk accepted; requested by image).
 *    A step the repository's graph has but the cluster does not offer waits (`StepNotOffered`),
 *    quoting `RetrievedUpdates` when the CVO could not fetch updates.
 * It does not re-plan: a cluster that is off the path is `blocked` (`OffPath`).
 * Throws `InvalidClusterState` when the ClusterVersion or ClusterOperators are malformed.
 */
export function nextUpdateAction(input: NextUpdateActionInput): UpdateAction {
  const cv = readClusterVersion(input.clusterVersion);
  const operators = readClusterOperators(input.clusterOperators);
  const status = cv.status;
  const conditions = status?.conditions ?? [];
  const latest = status?.history[0];
  const current = currentVersion(cv);
  if (!latest || !current) return wait('NoHistory', 'the ClusterVersion has no update history yet');
  const invalid = conditionOf(conditions, 'Invalid');
  if (invalid?.status === 'True') {
    return blocked(
      'InvalidClusterVersion',
      `the CVO ignores the ClusterVersion spec: ${invalid.message ?? invalid.reason ?? 'Invalid=True'}`,
    );
  }

  if (latest.state === 'Partial') {
    const now = input.now ?? new Date();
    return inFlight({ version: latest.version, conditions, operators, target: input.target, now });
  }
  const pending = pendingDesiredUpdate(cv);
  if (pending) {
    const accepted = conditionOf(conditions, 'ReleaseAccepted');
    if (accepted?.status === 'False') {
      return blocked(
        'ReleaseNotAccepted',
        `the CVO did not accept ${pending}: ${accepted.message ?? accepted.reason ?? ''}`,
      );
    }
    return wait(
      'DesiredUpdatePending',
      `spec.desiredUpdate asks for ${pending}; waiting for the CVO to start`,
    );
  }
  const unavailable = namesWith(operators, 'Available', 'False');
  if (conditionOf(conditions, 'Available')?.status !== 'True' || unavailable.length > 0) {
    const who =
      unavailable.length > 0
        ? `ClusterOperators not Available: ${unavailable.join(', ')}`
        : 'ClusterVersion is not Available';
    return wait('ClusterNotAvailable', `${current.version} completed; ${who}`);
  }
  const { target } = input;
  if (current.version === target.version && (!target.image || sameImage(current.image, target.image))) {
    return { action: 'done', message: `the cluster runs ${target.version} and is Available` };
  }
  if (target.channel !== undefined && cv.spec?.channel !== target.channel) {
    return blocked(
      'ChannelMismatch',
      `spec.channel is ${cv.spec?.channel ?? '(unset)'}, the target wants ${target.channel}: the CVO lists updates of spec.channel only`,
    );
  }
  return nextStep(cv, operators, current.version, input);
}

interface InFlightInput {
  /** `history[0].version`, the release being applied. */
  readonly version: string;
  /** The ClusterVersion's conditions. */
  readonly conditions: readonly Condition[];
  readonly operators: readonly ClusterOperatorState[];
  readonly target: UpdateTarget;
  readonly now: Date;
}

/** The CVO's `Failing` reasons for ClusterOperator conditions (`operatorstatus.go`, `checkOperatorHealth`). */
const OPERATOR_FAILING_REASONS: ReadonlySet<string> = new Set([
  'ClusterOperatorNotAvailable',
  'ClusterOperatorsNotAvailable',
  'ClusterOperatorDegraded',
  'ClusterOperatorsDegraded',
]);

/**
 * An update in flight, judged like `oc adm upgrade status` (`controlplane.go`, `coInsights`):
 * - a ClusterOperator `Available=False` for more than 20 minutes or `Degraded=True` for more than
 *   40 (from the condition's `lastTransitionTime`) is `blocked OperatorsFailing`, however young
 *   `Failing` is;
 * - `Failing=True` for an operator reason (`ClusterOperator(s)NotAvailable`, `...Degraded`) while
 *   some operator is unavailable or degraded, all within those thresholds: `wait
 *   UpdateFailingTransient`, however old `Failing` is (oc only warns);
 * - any other `Failing=True` (a manifest, a workload, `MultipleErrors`, or an operator reason no
 *   operator condition shows): `wait` while younger than `failingGraceSeconds`, then `blocked
 *   UpdateFailing`;
 * - else `wait UpdateInProgress`.
 * Every wait names the unavailable or degraded operators with the time left before they fail it.
 */
function inFlight({ version, conditions, operators, target, now }: InFlightInput): UpdateAction {
  const graced = operators
    .map((co) => operatorGrace(co.metadata.name, co.status.conditions, now))
    .filter((g): g is OperatorGrace => !!g);
  const failed = graced.filter((g) => g.level === 'error');
  if (failed.length > 0) {
    return blocked('OperatorsFailing', `update to ${version} is failing: ${messages(failed)}`);
  }
  const failing = conditionOf(conditions, 'Failing');
  if (failing?.status !== 'True') {
    const progressing = conditionOf(conditions, 'Progressing')?.message ?? `updating to ${version}`;
    return wait('UpdateInProgress', graced.length > 0 ? `${progressing}; ${messages(graced)}` : progressing);
  }
  const degraded = namesWith(operators, 'Degraded', 'True');
  const ops = degraded.length > 0 ? ` (degraded: ${degraded.join(', ')})` : '';
  const what = `update to ${version} is failing: ${failing.message ?? failing.reason ?? ''}${ops}`;
  if (graced.length > 0 && OPERATOR_FAILING_REASONS.has(failing.reason ?? '')) {
    return wait('UpdateFailingTransient', `${what}; waiting within oc's thresholds: ${messages(graced)}`);
  }
  const grace = target.failingGraceSeconds ?? DEFAULT_FAILING_GRACE_SECONDS;
  const since = Date.parse(failing.lastTransitionTime ?? '');
  const age = Number.isNaN(since) ? Infinity : (now.getTime() - since) / 1000;
  if (age < grace) {
    const within = graced.length > 0 ? `; ${messages(graced)}` : '';
    return wait(
      'UpdateFailingTransient',
      `${what}; waiting, as Failing is often transient (${Math.max(0, Math.round(age))}s of the ${grace}s grace period)${within}`,
    );
  }
  return blocked('UpdateFailing', `${what} (Failing for more than ${grace}s)`);
}

function messages(graced: readonly OperatorGrace[]): string {
  return graced.map((g) => g.message).join('; ');
}

function nextStep(
  cv: ClusterVersionState,
  operators: readonly ClusterOperatorState[],
  current: string,
  input: NextUpdateActionInput,
): UpdateAction {
  const { target, path } = input;
  if (!path.ok) return blocked(path.reason, `no update path: ${path.message}`);
  if (path.to !== target.version)
    return blocked('OffPath', `the path leads to ${path.to}, the target is ${target.version}`);
  const index = path.steps.findIndex((s) => s.from === current);
  const step = path.steps[index];
  if (!step)
    return blocked(
      'OffPath',
      `the cluster runs ${current}, which is not on the path ${path.from} -> ${path.to}; re-plan`,
    );
  const label = stepLabel(path, index, input.walk);
  const up = upgradeableOf(cv, operators);
  if (step.kind === 'minor' && up.status === 'False') {
    const who =
      up.blockers.map((b) => `${b.clusterOperator} (${b.reason})`).join(', ') ||
      (up.reason ?? 'ClusterVersion');
    // Operators set Upgradeable=False for transient reasons too (e.g. mid-rollout): a wait, bounded by
    // the stage timeout, not a failure.
    return wait('UpgradeableFalse', `Upgradeable=False holds the minor ${label}: ${who}`);
  }
  const set = (image: string | undefined) =>
    ({
      action: 'set-desired-update',
      desiredUpdate: { version: step.to, ...(image ? { image } : {}) },
      message: `${label}`,
    }) as const;
  const last = index === path.steps.length - 1;
  if (last && target.image) return set(target.image);
  if (step.rollback)
    return set(previousVersion(cv)?.version === step.to ? previousVersion(cv)!.image : step.image);
  const status = cv.status!;
  const available = status.availableUpdates.find((u) => u.version === step.to);
  if (available) return set(available.image);
  const conditional = status.conditionalUpdates.find((u) => u.release.version === step.to);
  if (conditional) {
    const accepted = new Set(target.acceptedRisks ?? []);
    const missing = conditional.risks.map((r) => r.name).filter((name) => !accepted.has(name));
    if (missing.length > 0)
      return blocked(
        'RiskNotAccepted',
        `${label} is not recommended for this cluster; accept ${missing.join(', ')}`,
      );
    return set(conditional.release.image);
  }
  const retrieved = conditionOf(status.conditions, 'RetrievedUpdates');
  const why =
    retrieved?.status === 'False'
      ? `the CVO could not retrieve updates (${retrieved.reason ?? 'RetrievedUpdates=False'}: ${retrieved.message ?? ''})`
      : `the update service offers ${step.to} to this cluster in neither status.availableUpdates nor status.conditionalUpdates`;
  return wait(
    'StepNotOffered',
    `${label} is in the repository's update graph, but ${why}; Groundwork requests only updates the cluster offers`,
  );
}

/**
 * `step 2/3 4.8.54 -> 4.9.53`: numbered against the whole walk (`walk.done` steps before this
 * path). A path that stops short of the walk's target cannot count the rest: `step 1 of at least 2`.
 */
function stepLabel(path: UpdatePathFound, index: number, walk: NextUpdateActionInput['walk']): string {
  const step = path.steps[index]!;
  const done = walk?.done ?? 0;
  const n = done + index + 1;
  const total = done + path.steps.length;
  const short = walk?.towards !== undefined && walk.towards !== path.to;
  return `step ${short ? `${n} of at least ${total + 1}` : `${n}/${total}`} ${step.from} -> ${step.to}`;
}

/** The desiredUpdate the CVO has not picked up yet, as `version` or `version (image)`. */
function pendingDesiredUpdate(cv: ClusterVersionState): string | undefined {
  const wanted = cv.spec?.desiredUpdate;
  const desired = cv.status?.desired;
  if (!wanted || (!wanted.version && !wanted.image)) return undefined;
  const versionDiffers =
    wanted.version !== undefined && wanted.version !== '' && wanted.version !== desired?.version;
  const imageDiffers =
    wanted.image !== undefined && wanted.image !== '' && !sameImage(wanted.image, desired?.image ?? '');
  if (!versionDiffers && !imageDiffers) return undefined;
  return wanted.image ? `${wanted.version || '(no version)'} (${wanted.image})` : wanted.version;
}

function namesWith(operators: readonly ClusterOperatorState[], type: string, status: string): string[] {
  return operators
    .filter((co) => conditionOf(co.status.conditions, type)?.status === status)
    .map((co) => co.metadata.name)
    .sort();
}

function wait(reason: WaitReason, message: string): UpdateAction {
  return { action: 'wait', reason, message };
}

function blocked(reason: BlockedReason, message: string): UpdateAction {
  return { action: 'blocked', reason, message };
}

/** One line for logs and events: `set-desired-update 4.14.11: step 1/1 ...`, `wait (UpdateInProgress): ...`. */
export function describeUpdateAction(action: UpdateAction): string {
  switch (action.action) {
    case 'set-desired-update':
      return `set-desired-update ${action.desiredUpdate.version}${action.desiredUpdate.image ? ` (${action.desiredUpdate.image})` : ''}: ${action.message}`;
    case 'done':
      return `done: ${action.message}`;
    default:
      return `${action.action} (${action.reason}): ${action.message}`;
  }
}
