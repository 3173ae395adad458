import type { StageContext, StageHook } from '../apply/stage-hook.js';
import type { WaitCheck } from '../apply/wait.js';
import type { K8sObject } from '../core/object.js';
import { readMachineConfigPool } from '../health/machine-config-pool-schema.js';
import { type ClusterVersionState, currentVersion } from './cluster-state.js';
import { readLiveClusterVersion, type LiveClusterVersion } from './live-cluster-version.js';
import type { UpdateGraph } from './graph.js';
import type { UpdatePath } from './path.js';
import type { ReleaseSnapshot } from './release-snapshot.js';
import { nextUpdateAction, type UpdateAction, type UpdateTarget } from './stepper.js';
import {
  intentsOf,
  planClusterUpdate,
  type ClusterUpdateIntent,
  type ClusterUpdatePlan,
} from './update-plan.js';
import { clusterUpdateStatus, type ClusterUpdateStatus } from './update-status.js';
import { ownersOf } from '../plan/managed-fields.js';

/** Field manager of `spec.desiredUpdate` and of pool pauses for EUS updates, apart from `groundwork`. */
const VERSION_MANAGER = 'groundwork-version';

const CV = 'config.openshift.io/v1';
const MCP = 'machineconfiguration.openshift.io/v1';

/**
 * The cluster-version stage's hook: walks the cluster to the target one valid update at a time.
 * Each pass reads the live ClusterVersion and ClusterOperators, plans the update
 * (`planClusterUpdate`, as `groundwork plan` shows it: the repository's graph files merged with the
 * live `availableUpdates`/`conditionalUpdates`, the target checked against `snapshot`), and takes
 * the stepper's next action: set `spec.desiredUpdate` to the next step, wait for it to complete with
 * the cluster Available, report a blocker, or finish. A definitive blocker (an unknown version or a
 * downgrade not accepted, a skipped minor, a target not in the channel, ...) refuses the whole apply
 * before anything is written. Steps are numbered against the whole walk of this apply (`step 2/2`),
 * not per pass: create the hook once per apply.
 */
export function clusterVersionHook(opts: {
  graphs: readonly UpdateGraph[];
  /** The shipped graph-data snapshot (`loadReleaseSnapshot`): without it an unknown version is not caught. */
  snapshot?: ReleaseSnapshot;
  /** Told, on every check, the path and the action decided (the agent publishes it in its status). */
  publish?: (update: ClusterUpdateStatus) => void;
}): StageHook {
  // Per ClusterVersion, the versions this hook requested, in order: how many steps the walk has taken.
  const requested = new Map<string, string[]>();
  const plan = (intent: ClusterUpdateIntent, live: LiveClusterVersion) =>
    planClusterUpdate({
      intent,
      clusterVersion: live.cv,
      graphs: opts.graphs,
      ...(opts.snapshot ? { snapshot: opts.snapshot } : {}),
    });
  return {
    async preflight(ctx) {
      const problems: string[] = [];
      for (const intent of intentsOf(desiredOf(ctx))) {
        const live = await readLiveClusterVersion(ctx.target, intent.name);
        if (!live) continue;
        for (const b of plan(intent, live).blockers.filter((x) => x.definitive))
          problems.push(
            `ClusterVersion/${intent.name}: target ${intent.target.version} refused (${b.code}): ${b.message}${b.fix ? `; fix: ${b.fix}` : ''}`,
          );
      }
      return problems.length ? problems.join('; ') : undefined;
    },
    async check(ctx) {
      const pending: string[] = [];
      // No ClusterVersion (no CVO, as on a plain cluster): nothing will ever update, so the stage
      // is not ready, and waiting would not change that.
      const absent: string[] = [];
      for (const intent of intentsOf(desiredOf(ctx))) {
        const live = await readLiveClusterVersion(ctx.target, intent.name);
        if (!live) {
          absent.push(
            `ClusterVersion/${intent.name}: not in the cluster (no cluster-version operator to update it)`,
          );
          continue;
        }
        const planned = plan(intent, live);
        const taken = requested.get(intent.name) ?? [];
        const action = decide(intent, live, planned, {
          done: taken.lastIndexOf(planned.current) + 1,
          towards: intent.target.version,
        });
        opts.publish?.(
          clusterUpdateStatus({
            name: intent.name,
            cv: live.cv,
            target: intent.target.version,
            acceptedRisks: intent.target.acceptedRisks ?? [],
            path: planned.path,
            action,
          }),
        );
        if (action.action === 'set-desired-update')
          requested.set(intent.name, [...taken, action.desiredUpdate.version]);
        const result = await act(ctx, intent, live.cv, action);
        if (result.failed) return { done: false, pending, failed: result.failed };
        if (result.pending) pending.push(result.pending);
      }
      if (absent.length > 0 && pending.length === 0)
        return { done: false, pending: absent, deferred: absent.join('; ') };
      if (pending.length > 0 && !ctx.wait)
        return { done: false, pending, deferred: [...pending, ...absent].join('; ') };
      return { done: pending.length === 0, pending } satisfies WaitCheck;
    },
  };
}

function desiredOf(ctx: StageContext): K8sObject[] {
  return ctx.items.flatMap((i) => (i.desired ? [i.desired] : []));
}

/** The stepper's action on a planned update: a definitive blocker blocks, a live-only gap waits. */
function decide(
  intent: ClusterUpdateIntent,
  live: LiveClusterVersion,
  planned: ClusterUpdatePlan,
  walk: { done: number; towards: string },
): UpdateAction {
  const { path } = planned;
  const blocker = planned.blockers.find((b) => b.definitive);
  if (blocker && blocker.code !== 'UpgradeableFalse')
    return { action: 'blocked', reason: blocker.code, message: blocker.message };
  // From the live ClusterVersion alone, "not in the graph" means the update service has not offered
  // a step yet (the CVO refreshes availableUpdates after a channel change): wait.
  if (!path.ok && planned.graphs.length === 1 && (path.reason === 'NotInGraph' || path.reason === 'NoPath'))
    return {
      action: 'wait',
      reason: 'DesiredUpdatePending',
      message: `waiting for the update service to offer a step from ${path.from} towards ${intent.target.version}`,
    };
  if (!path.ok && path.reason !== 'BlockedByUpgradeable')
    return { action: 'blocked', reason: path.reason, message: path.message };
  return nextUpdateAction({
    clusterVersion: live.cv,
    clusterOperators: live.operators,
    target: stepTarget(intent, path),
    path,
    walk,
  });
}

/** The stepper's target: the end of the planned path (a hop towards the real target when the graph is live-only). */
function stepTarget(intent: ClusterUpdateIntent, path: UpdatePath): UpdateTarget {
  if (path.to === intent.target.version) return intent.target;
  const { image: _image, ...rest } = intent.target;
  return { ...rest, version: path.to };
}

async function act(
  ctx: StageContext,
  intent: ClusterUpdateIntent,
  cv: ClusterVersionState,
  action: UpdateAction,
): Promise<{ failed?: string; pending?: string }> {
  const current = currentVersion(cv)?.version;
  const reached = current === intent.target.version;
  if (intent.controlPlaneOnly) await eusPools(ctx, !(action.action === 'done' && reached));
  switch (action.action) {
    case 'done':
      return reached
        ? {}
        : {
            pending: `ClusterVersion/${intent.name}: at ${current}, planning the next step towards ${intent.target.version}`,
          };
    case 'blocked':
      return {
        failed: `ClusterVersion/${intent.name}: update to ${intent.target.version} blocked (${action.reason}): ${action.message}`,
      };
    case 'wait':
      return { pending: `ClusterVersion/${intent.name}: ${action.message}` };
    case 'set-desired-update':
      await ctx.target.apply(
        {
          apiVersion: CV,
          kind: 'ClusterVersion',
          metadata: { name: intent.name },
          spec: { desiredUpdate: action.desiredUpdate },
        },
        { force: true, fieldManager: VERSION_MANAGER },
      );
      ctx.notice(`ClusterVersion/${intent.name}: ${action.message}`);
      return {
        pending: `ClusterVersion/${intent.name}: updating to ${action.desiredUpdate.version} (target ${intent.target.version})`,
      };
  }
}

/**
 * EUS-to-EUS control-plane-only: non-master pools stay paused while the control plane goes
 * through both minors, and are unpaused when the target is reached. Only pools this hook paused
 * (it owns `spec.paused`) are unpaused; a pool someone else paused stays paused. A pool whose fields
 * do not have the MCO's types stops the stage (`ClusterObjectInvalid`).
 */
async function eusPools(ctx: StageContext, updating: boolean): Promise<void> {
  for (const pool of (await ctx.target.list(MCP, 'MachineConfigPool', '')).map(readMachineConfigPool)) {
    if (pool.metadata.name === 'master') continue;
    const paused = pool.spec?.paused === true;
    const ours = ownersOf(pool, ['spec', 'paused']).includes(VERSION_MANAGER);
    if (updating && !paused) {
      await ctx.target.apply(
        {
          apiVersion: MCP,
          kind: 'MachineConfigPool',
          metadata: { name: pool.metadata.name },
          spec: { paused: true },
        },
        { force: true, fieldManager: VERSION_MANAGER },
      );
      ctx.notice(`MachineConfigPool/${pool.metadata.name}: paused for the control-plane-only EUS update`);
    } else if (!updating && paused && ours) {
      await ctx.target.apply(
        {
          apiVersion: MCP,
          kind: 'MachineConfigPool',
          metadata: { name: pool.metadata.name },
          spec: { paused: false },
        },
        { force: true, fieldManager: VERSION_MANAGER },
      );
      ctx.notice(`MachineConfigPool/${pool.metadata.name}: unpaused, the EUS update is complete`);
    }
  }
}
