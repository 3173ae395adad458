import type { StageContext, StageHook } from '../apply/stage-hook.js';
import type { WaitCheck } from '../apply/wait.js';
import { ANNOTATIONS, acceptedRisksOf } from '../core/annotations.js';
import { isPlainObject, type K8sObject } from '../core/object.js';
import { readMachineConfigPool } from '../health/machine-config-pool-schema.js';
import {
  currentVersion,
  previousVersion,
  readClusterVersion,
  type ClusterVersionState,
} from './cluster-state.js';
import { graphFromClusterVersion, mergeGraphs, nodeOf, type UpdateGraph } from './graph.js';
import { planUpdatePath, type UpdatePath } from './path.js';
import { nextUpdateAction, type UpdateAction, type UpdateTarget } from './stepper.js';
import { compareVersions, parseVersion } from './version.js';
import { clusterUpdateStatus, type ClusterUpdateStatus } from './update-status.js';
import { ownersOf } from '../plan/managed-fields.js';

/** Field manager of `spec.desiredUpdate` and of pool pauses for EUS updates, apart from `groundwork`. */
const VERSION_MANAGER = 'groundwork-version';

const CV = 'config.openshift.io/v1';
const MCP = 'machineconfiguration.openshift.io/v1';

/** Refusals that no later cluster state can cure: the target itself is invalid. */
const DEFINITIVE = new Set([
  'InvalidVersion',
  'InvalidChannel',
  'NotInChannel',
  'Downgrade',
  'MajorVersionUpdate',
  'NotEusToEus',
  'SkippedMinor',
  'RiskNotAccepted',
]);

interface Intent {
  name: string;
  target: UpdateTarget;
  controlPlaneOnly: boolean;
}

/**
 * The cluster-version stage's hook: walks the cluster to the target one valid update at a time.
 * Each pass reads the live ClusterVersion and ClusterOperators, plans the path over the update
 * graph (the repository's graph files merged with the live `availableUpdates`/`conditionalUpdates`),
 * and takes the stepper's next action: set `spec.desiredUpdate` to the next step, wait for it to
 * complete with the cluster Available, report a blocker, or finish. An invalid target (skipped
 * minor, downgrade, not in the channel, ...) refuses the whole apply before anything is written.
 */
export function clusterVersionHook(opts: {
  graphs: readonly UpdateGraph[];
  /** Told, on every check, the path and the action decided (the agent publishes it in its status). */
  publish?: (update: ClusterUpdateStatus) => void;
}): StageHook {
  return {
    async preflight(ctx) {
      const problems: string[] = [];
      for (const intent of intents(ctx)) {
        const live = await liveState(ctx, intent.name);
        if (!live) continue;
        const path = plannedPath(intent, live, opts.graphs);
        if (!path.ok && DEFINITIVE.has(path.reason))
          problems.push(
            `ClusterVersion/${intent.name}: target ${intent.target.version} refused (${path.reason}): ${path.message}`,
          );
      }
      return problems.length ? problems.join('; ') : undefined;
    },
    async check(ctx) {
      const pending: string[] = [];
      // No ClusterVersion (no CVO, as on a plain cluster): nothing will ever update, so the stage
      // is not ready, and waiting would not change that.
      const absent: string[] = [];
      for (const intent of intents(ctx)) {
        const live = await liveState(ctx, intent.name);
        if (!live) {
          absent.push(
            `ClusterVersion/${intent.name}: not in the cluster (no cluster-version operator to update it)`,
          );
          continue;
        }
        const path = plannedPath(intent, live, opts.graphs);
        // From the live ClusterVersion alone, "not in the graph" means the update service has not
        // offered a step yet (the CVO refreshes availableUpdates after a channel change): wait.
        const notOffered =
          !path.ok && opts.graphs.length === 0 && (path.reason === 'NotInGraph' || path.reason === 'NoPath');
        const action: UpdateAction = notOffered
          ? {
              action: 'wait',
              reason: 'DesiredUpdatePending',
              message: `waiting for the update service to offer a step from ${path.from} towards ${intent.target.version}`,
            }
          : path.ok || path.reason === 'BlockedByUpgradeable'
            ? nextUpdateAction({
                clusterVersion: live.cv,
                clusterOperators: live.operators,
                target: stepTarget(intent, path),
                path,
              })
            : { action: 'blocked', reason: path.reason, message: path.message };
        opts.publish?.(
          clusterUpdateStatus({
            name: intent.name,
            cv: live.cv,
            target: intent.target.version,
            acceptedRisks: intent.target.acceptedRisks ?? [],
            path,
            action,
          }),
        );
        const result = await act(ctx, intent, live, action);
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

function intents(ctx: StageContext): Intent[] {
  return ctx.items
    .map((i) => i.desired!)
    .filter((o) => o.kind === 'ClusterVersion' && o.metadata.annotations?.[ANNOTATIONS.targetVersion])
    .map((o) => {
      const a = o.metadata.annotations!;
      const image = a[ANNOTATIONS.targetImage];
      const spec = isPlainObject(o.spec) ? o.spec : {};
      return {
        name: o.metadata.name,
        controlPlaneOnly: a[ANNOTATIONS.controlPlaneOnly] === 'true',
        target: {
          version: a[ANNOTATIONS.targetVersion]!,
          channel: typeof spec.channel === 'string' ? spec.channel : undefined,
          acceptedRisks: acceptedRisksOf(o),
          ...(a[ANNOTATIONS.failingGrace] !== undefined &&
          Number.isFinite(Number(a[ANNOTATIONS.failingGrace]))
            ? { failingGraceSeconds: Number(a[ANNOTATIONS.failingGrace]) }
            : {}),
          ...(image ? { image } : {}),
        },
      };
    });
}

async function liveState(
  ctx: StageContext,
  name: string,
): Promise<{ cv: ClusterVersionState; raw: K8sObject; operators: K8sObject[] } | undefined> {
  const raw = (await ctx.target.list(CV, 'ClusterVersion', '')).find((c) => c.metadata.name === name);
  if (!raw?.status) return undefined;
  return { cv: readClusterVersion(raw), raw, operators: await ctx.target.list(CV, 'ClusterOperator', '') };
}

/**
 * The path from the cluster's current version. With a graph file it is the whole way. From the live
 * ClusterVersion alone only the next hops are known, so the path goes to the best hop towards the
 * target that the channel offers (the target itself, else the newest release of the next minor not
 * past it, else the newest patch of the current minor) and is planned again after every step.
 */
function plannedPath(
  intent: Intent,
  live: { cv: ClusterVersionState; operators: K8sObject[] },
  files: readonly UpdateGraph[],
): UpdatePath {
  const current = currentVersion(live.cv)?.version ?? live.cv.status?.desired?.version ?? '';
  const liveGraph = graphFromClusterVersion(live.cv);
  const graph = mergeGraphs([...files, liveGraph]);
  const options = {
    from: current,
    channel: intent.target.channel,
    acceptedRisks: intent.target.acceptedRisks ?? [],
    // Upgradeable=False is left to the stepper: it takes the patch steps and stops before the minor one.
    // Mid-way through an EUS update the cluster sits on the odd minor: plan the rest as a normal update.
    eusControlPlaneOnly: intent.controlPlaneOnly && (parseVersion(current)?.minor ?? 1) % 2 === 0,
    ...(previousVersion(live.cv)?.version ? { previousVersion: previousVersion(live.cv)!.version } : {}),
  };
  const direct = () => planUpdatePath(graph, { ...options, to: intent.target.version });
  if (
    files.length > 0 ||
    nodeOf(liveGraph, intent.target.version) ||
    compareVersions(intent.target.version, current) <= 0
  )
    return direct();
  const hop = bestHop(graph, current, intent.target.version, intent.target.channel);
  return hop ? planUpdatePath(graph, { ...options, to: hop }) : direct();
}

function bestHop(
  graph: UpdateGraph,
  from: string,
  target: string,
  channel: string | undefined,
): string | undefined {
  const cur = parseVersion(from);
  if (!cur || !parseVersion(target)) return undefined;
  const offered = graph.edges
    .filter((e) => e.from === from && compareVersions(e.to, target) <= 0)
    .map((e) => e.to)
    .filter((v) => !channel || (nodeOf(graph, v)?.channels ?? []).includes(channel));
  const minorOf = (v: string) => parseVersion(v)!.minor;
  const newest = (vs: string[]) => vs.sort(compareVersions).at(-1);
  return (
    newest(offered.filter((v) => minorOf(v) === cur.minor + 1)) ??
    newest(offered.filter((v) => minorOf(v) === cur.minor))
  );
}

/** The stepper's target: the end of the planned path (a hop towards the real target when the graph is live-only). */
function stepTarget(intent: Intent, path: UpdatePath): UpdateTarget {
  if (path.to === intent.target.version) return intent.target;
  const { image: _image, ...rest } = intent.target;
  return { ...rest, version: path.to };
}

async function act(
  ctx: StageContext,
  intent: Intent,
  live: { raw: K8sObject; cv: ClusterVersionState },
  action: UpdateAction,
): Promise<{ failed?: string; pending?: string }> {
  const current = currentVersion(live.cv)?.version;
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
