import { isPlainObject, type Condition, type K8sObject } from '../core/object.js';
import { describe } from '../core/object-id.js';
import { clusterOperatorHealth, operatorVersion } from './cluster-operator.js';
import {
  clusterVersionHealth,
  completedVersion,
  desiredRelease,
  releaseName,
  updateCompleted,
} from './cluster-version.js';
import { machineConfigPoolHealth, poolProgress } from './machine-config-pool.js';
import { machineConfigPoolSchema } from './machine-config-pool-schema.js';
import { operatorGrace, type OperatorGrace } from './operator-grace.js';
import { summarizeClusterUpdate, type ClusterUpdateReason } from './cluster-update-summary.js';
import { verdict, type HealthVerdict, type ObjectVerdict } from './types.js';

/** The annotation on a rendered MachineConfig naming the release it was rendered for. */
export const RELEASE_ANNOTATION = 'machineconfiguration.openshift.io/release-image-version';

export interface ClusterUpdateInput {
  /** The cluster's ClusterVersion (`version`). */
  readonly clusterVersion: K8sObject;
  readonly clusterOperators: readonly K8sObject[];
  readonly machineConfigPools: readonly K8sObject[];
  /**
   * Rendered MachineConfigs. With them a pool has reached the target when the configuration its
   * machines run (`status.configuration.name`) was rendered for the target release
   * (`RELEASE_ANNOTATION`). Without them (or without the annotation) a pool has reached it when the
   * update completed, or when the machine-config operator reports the target version and the pool
   * has nothing pending; a pending rollout after an update then counts as part of it.
   * @default []
   */
  readonly machineConfigs?: readonly K8sObject[];
  /** The time to judge the age of operators' conditions against (oc's grace thresholds). */
  readonly now: Date;
}

/** The verdict on the cluster's update, as a cluster administrator reads it. */
export interface ClusterUpdateHealth {
  /** The roll-up: Healthy when idle at the desired release, else what holds the update. */
  verdict: HealthVerdict & { reason: ClusterUpdateReason };
  /** The desired release (version, else image). */
  target: string;
  /** The version the cluster last completed, if any. */
  from: string | undefined;
  /** True until ClusterVersion completed the desired release and every pool reached it. */
  updating: boolean;
  /** Each object in the update's view: the ClusterVersion, then operators, then pools. */
  objects: ObjectVerdict[];
}

/**
 * Assesses "the cluster's update" from a ClusterVersion, its ClusterOperators and its
 * MachineConfigPools (optionally rendered MachineConfigs), with no I/O.
 *
 * Each object starts from its own verdict (`assessHealth`), then the update adds what only the
 * update knows: during an update, a healthy operator that does not report the target version yet
 * is `Progressing` (AwaitingUpdate); a pool whose machines have not reached the target release is
 * `Progressing` (AwaitingUpdate), or `Suspended` (PoolPaused) when it is paused, because a paused
 * pool stops the update from completing without failing it. The roll-up is the worst state, with
 * a reason from `ClusterUpdateReason` and a message naming the objects that hold it.
 *
 * An operator that is unavailable or degraded keeps its own `Degraded` verdict, but it fails the
 * update's roll-up only once its condition is older than oc's thresholds (`OPERATOR_GRACE_MS`:
 * 20 minutes unavailable, 40 degraded, judged at `now` from `lastTransitionTime`); until then the
 * roll-up is Progressing, with reason `ClusterOperatorsWarning` past 5 minutes, and the message
 * says how long is left. The target is `status.desired.version` for an update requested by image
 * (`desiredRelease`). A pool with no machines is never behind (oc shows it as `Empty`).
 *
 * It does not judge nodes (only what pools report), alerts, or whether the update is allowed
 * (`Upgradeable`, update risks): those are preflight questions, not health.
 *
 * @example assessClusterUpdate({ clusterVersion, clusterOperators, machineConfigPools }).verdict.status
 */
export function assessClusterUpdate(input: ClusterUpdateInput): ClusterUpdateHealth {
  const cv = input.clusterVersion;
  const desired = desiredRelease(cv);
  const target = releaseName(desired);
  const completed = updateCompleted(cv);
  const mco = input.clusterOperators.find((co) => co.metadata.name === 'machine-config');
  const mcoAtTarget = !!mco && !!desired?.version && operatorVersion(mco) === desired.version;
  const releases = new Map(
    (input.machineConfigs ?? []).map((mc) => [
      mc.metadata.name,
      mc.metadata.annotations?.[RELEASE_ANNOTATION],
    ]),
  );

  const operators = input.clusterOperators.map((co): ObjectVerdict => {
    const own = clusterOperatorHealth(co);
    const version = operatorVersion(co);
    const behind =
      !completed &&
      own.status === 'Healthy' &&
      !!version &&
      !!desired?.version &&
      version !== desired.version;
    const v = behind
      ? verdict('Progressing', 'AwaitingUpdate', `at ${version}, not yet updated to ${target}`)
      : own;
    return { subject: describe(co), ...v };
  });
  const graced = new Map<string, OperatorGrace>();
  for (const [i, co] of input.clusterOperators.entries()) {
    const grace =
      operators[i]!.status === 'Degraded' && operatorGrace(co.metadata.name, conditionsOf(co), input.now);
    if (grace) graced.set(operators[i]!.subject, grace);
  }

  let poolsBehind = 0;
  const pools = input.machineConfigPools.map((pool): ObjectVerdict => {
    const own = machineConfigPoolHealth(pool);
    const parsed = machineConfigPoolSchema.safeParse(pool);
    // Unreadable: its own verdict (Unknown, InvalidObject) says why; it is not counted as behind.
    if (!parsed.success) return { subject: describe(pool), ...own };
    const p = poolProgress(parsed.data);
    const release = p.current ? releases.get(p.current) : undefined;
    const atTarget =
      p.machines === 0 ||
      (release && desired?.version ? release === desired.version : !p.pending && (completed || mcoAtTarget));
    if (!atTarget) poolsBehind++;
    const on = release ? `on ${release}` : 'on an older configuration';
    let v = own;
    if (!atTarget && own.status !== 'Degraded' && own.status !== 'Unknown') {
      if (p.paused) {
        v = verdict(
          'Suspended',
          'PoolPaused',
          `the pool is paused: its ${p.machines} machines (${on}) will not update to ${target} until it is unpaused`,
        );
      } else if (own.status === 'Healthy') {
        v = verdict('Progressing', 'AwaitingUpdate', `its ${p.machines} machines (${on}) wait for ${target}`);
      }
    }
    return { subject: describe(pool), ...v };
  });

  const cvVerdict: ObjectVerdict = { subject: describe(cv), ...clusterVersionHealth(cv) };
  const from = completedVersion(cv);
  const updating = !completed || poolsBehind > 0;
  const objects = [cvVerdict, ...operators, ...pools];
  return {
    verdict: summarizeClusterUpdate({
      clusterVersion: cvVerdict,
      operators,
      pools,
      target,
      from,
      updating,
      graced,
    }),
    target,
    from,
    updating,
    objects,
  };
}

/** The operator's `status.conditions` that are objects with a type and a status. */
function conditionsOf(co: K8sObject): Condition[] {
  const status = isPlainObject(co.status) ? co.status : {};
  const list = Array.isArray(status.conditions) ? status.conditions : [];
  return list.filter(
    (c): c is Condition => isPlainObject(c) && typeof c.type === 'string' && typeof c.status === 'string',
  );
}
