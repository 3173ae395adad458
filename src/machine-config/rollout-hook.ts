import type { StageContext, StageHook } from '../apply/stage-hook.js';
import type { WaitCheck } from '../apply/wait.js';
import { ANNOTATIONS } from '../core/annotations.js';
import { idOfRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { readMachineConfigPool, type MachineConfigPool } from '../health/machine-config-pool-schema.js';
import type { PlanItem } from '../plan/types.js';
import { poolsSelecting } from './pool-selection.js';
import { awaitsMachineConfigs } from './render-degraded.js';
import { poolRollout } from './rollout-state.js';
import { parseWindows, windowState } from '../core/window.js';

/** Field manager of the pauses a maintenance window imposes, apart from `groundwork`. */
const ROLLOUT_MANAGER = 'groundwork-rollout';

const MCP = 'machineconfiguration.openshift.io/v1';

/**
 * The live pools, each checked by `readMachineConfigPool`.
 * @throws ClusterObjectInvalidError naming the first pool with a field of an unexpected type.
 */
async function livePools(ctx: StageContext): Promise<MachineConfigPool[]> {
  return (await ctx.target.list(MCP, 'MachineConfigPool', '')).map(readMachineConfigPool);
}

/**
 * The machine-configs stage's hook: says which pools a MachineConfig change rolls and how many
 * nodes reboot, keeps pools with maintenance windows paused outside their windows (changes wait
 * there and are reported as pending, not failed), and waits until every pool that selects a platform
 * MachineConfig runs it, decided by the pool's status (`poolRollout`), never by a change of rendered
 * name. Degraded, RenderDegraded or NodeDegraded stops the rollout with the MCO's own message, except a
 * RenderDegraded that says the MCO found no MachineConfigs while declared ones that match the pool exist
 * for less than `RENDER_GRACE_MS` (by the live objects' `creationTimestamp` against the system clock,
 * not `now`): the render controller had not seen them yet, and it is waited out. The master
 * pool's pause is touched only when its construct declares `managePause` (windows imply it on
 * other pools). `now` is injected so tests and the quick start control time. A live pool whose
 * fields do not have the MCO's types fails the stage with `ClusterObjectInvalid` naming it.
 */
export function machineConfigRolloutHook(opts: { now?: () => Date } = {}): StageHook {
  const now = opts.now ?? (() => new Date());
  return {
    async beforeApply(ctx) {
      const live = await livePools(ctx);
      const affected = affectedPools(ctx.items, live);
      for (const [pool, mcs] of affected) {
        const obj = live.find((p) => p.metadata.name === pool);
        ctx.notice(
          `MachineConfigPool/${pool}: ${mcs.join(', ')} → ${rebootCount(obj?.status?.machineCount)} reboot, maxUnavailable ${obj?.spec?.maxUnavailable ?? 1}`,
        );
      }
      for (const pool of live) await enforceWindow(ctx, pool, now());
    },
    async check(ctx) {
      const live = await livePools(ctx);
      const watched = watchedPools(ctx.items, live);
      // The declared MachineConfigs are read too when a pool says it found none (a late render?).
      const late = [...watched].filter(([pool]) => awaitsMachineConfigs(pool));
      const configs = await liveMachineConfigs(ctx, [
        ...[...watched.keys()].map((p) => p.spec?.configuration?.name),
        ...late.flatMap(([, declared]) => declared.map((mc) => mc.metadata.name)),
      ]);
      const created = new Map(
        [...configs].flatMap(([name, mc]) =>
          mc.metadata.creationTimestamp ? [[name, mc.metadata.creationTimestamp] as const] : [],
        ),
      );
      // A pool the platform's MachineConfigs need that the cluster lacks renders nothing: not ready.
      const pending: string[] = missingPools(ctx.items, live);
      const deferred: string[] = [];
      for (const [pool, declared] of watched) {
        await enforceWindow(ctx, pool, now());
        // A MachineConfig's age is judged by the system clock: `now` may be a test's window time.
        const rollout = poolRollout(pool, declared, configs.get(pool.spec?.configuration?.name ?? ''), {
          now: new Date(),
          created,
        });
        if (rollout.state === 'degraded') return { done: false, pending, failed: rollout.message };
        if (rollout.state === 'paused') deferred.push(pausedMessage(pool, now()));
        if (rollout.state === 'waiting') pending.push(rollout.message);
      }
      if (pending.length === 0 && deferred.length > 0)
        return { done: false, pending: deferred, deferred: deferred.join('; ') };
      if (pending.length > 0 && !ctx.wait)
        return { done: false, pending, deferred: [...pending, ...deferred].join('; ') };
      return { done: pending.length === 0, pending } satisfies WaitCheck;
    },
  };
}

/**
 * The pools that select a platform MachineConfig (declared by the platform, or OpenShift's
 * `master`/`worker`) but are not in the cluster, each as a pending line naming the MachineConfigs
 * it would render. Pure. Empty when every such pool exists.
 *
 * @example missingPools(items, []) // ['MachineConfigPool/worker: not in the cluster (MachineConfig 50-chrony waits for it)']
 */
export function missingPools(items: readonly PlanItem[], live: readonly K8sObject[]): string[] {
  const declared = items
    .filter((i) => i.ref.kind === 'MachineConfigPool' && i.desired)
    .map((i) => i.desired!);
  const missing = new Map<string, string[]>();
  for (const mc of items.filter((i) => i.ref.kind === 'MachineConfig' && i.desired))
    for (const pool of poolsSelecting(mc.desired!, declared))
      if (!live.some((p) => p.metadata.name === pool.name))
        missing.set(pool.name, [...(missing.get(pool.name) ?? []), mc.ref.name]);
  return [...missing].map(
    ([pool, mcs]) =>
      `MachineConfigPool/${pool}: not in the cluster (MachineConfig ${mcs.join(', ')} waits for it)`,
  );
}

/**
 * The live pools the stage waits for, each with the platform's MachineConfigs it selects: every pool
 * that selects one of them (changed in this apply or not: a change held by a paused pool, or still
 * rolling from an earlier apply, is part of the desired state too), and every pool the platform
 * creates or changes.
 */
function watchedPools(
  items: readonly PlanItem[],
  live: readonly MachineConfigPool[],
): Map<MachineConfigPool, K8sObject[]> {
  const declaredPools = items
    .filter((i) => i.ref.kind === 'MachineConfigPool' && i.desired)
    .map((i) => i.desired!);
  const pools = [
    ...declaredPools,
    ...live.filter((p) => !declaredPools.some((d) => d.metadata.name === p.metadata.name)),
  ];
  const selected = new Map<string, K8sObject[]>();
  for (const mc of items.filter((i) => i.ref.kind === 'MachineConfig' && i.desired))
    for (const pool of poolsSelecting(mc.desired!, pools))
      selected.set(pool.name, [...(selected.get(pool.name) ?? []), mc.desired!]);
  const changedPools = new Set(
    items
      .filter((i) => i.ref.kind === 'MachineConfigPool' && i.action !== 'unchanged')
      .map((i) => i.ref.name),
  );
  const out = new Map<MachineConfigPool, K8sObject[]>();
  for (const pool of live) {
    const name = pool.metadata.name;
    if (selected.has(name) || changedPools.has(name)) out.set(pool, selected.get(name) ?? []);
  }
  return out;
}

/**
 * The live MachineConfigs named (the rendered ones the pools target, declared ones), by name, read
 * with one batched list; absent when they cannot be read.
 */
async function liveMachineConfigs(
  ctx: StageContext,
  wanted: readonly (string | undefined)[],
): Promise<Map<string, K8sObject>> {
  const names = new Set(wanted.filter((n): n is string => !!n));
  const refs = [...names].map((name) => ({
    id: idOfRef({ group: 'machineconfiguration.openshift.io', kind: 'MachineConfig', namespace: '', name }),
    apiVersion: MCP,
    kind: 'MachineConfig',
    group: 'machineconfiguration.openshift.io',
    namespace: '',
  }));
  if (refs.length === 0) return new Map();
  const found = await ctx.target.fetch(refs);
  return new Map([...found.values()].map((mc) => [mc.metadata.name, mc]));
}

function pausedMessage(pool: K8sObject, now: Date): string {
  const windows = pool.metadata.annotations?.[ANNOTATIONS.maintenanceWindows];
  const parsed = windows ? parseWindows(windows) : undefined;
  const state = parsed?.ok ? windowState(parsed.windows, now) : undefined;
  return `MachineConfigPool/${pool.metadata.name}: paused${state && !state.open ? ` until its maintenance window (${state.reason})` : ''}; changes pending`;
}

/** Pools whose nodes a changed MachineConfig reboots, with the MachineConfigs that cause it. */
function affectedPools(items: readonly PlanItem[], livePools: readonly K8sObject[]): Map<string, string[]> {
  const declared = items.filter((i) => i.ref.kind === 'MachineConfigPool').map((i) => i.desired!);
  const pools = [
    ...declared,
    ...livePools.filter((p) => !declared.some((d) => d.metadata.name === p.metadata.name)),
  ];
  const out = new Map<string, string[]>();
  for (const mc of items.filter(
    (i) =>
      i.ref.kind === 'MachineConfig' &&
      (i.action === 'create' || i.action === 'update' || i.action === 'adopt'),
  )) {
    for (const pool of poolsSelecting(mc.desired!, pools))
      out.set(pool.name, [...(out.get(pool.name) ?? []), `MachineConfig/${mc.ref.name}`]);
  }
  return out;
}

/** Pauses a window-managed pool outside its windows and unpauses it inside them. */
async function enforceWindow(ctx: StageContext, pool: MachineConfigPool, now: Date): Promise<void> {
  const a = pool.metadata.annotations ?? {};
  if (a[ANNOTATIONS.managePause] !== 'true' || !a[ANNOTATIONS.maintenanceWindows]) return;
  const parsed = parseWindows(a[ANNOTATIONS.maintenanceWindows]!);
  const open = parsed.ok ? windowState(parsed.windows, now).open : false;
  const paused = pool.spec?.paused === true;
  if (paused === !open) return;
  await ctx.target.apply(
    {
      apiVersion: MCP,
      kind: 'MachineConfigPool',
      metadata: { name: pool.metadata.name },
      spec: { paused: !open },
    },
    { force: true, fieldManager: ROLLOUT_MANAGER },
  );
  ctx.notice(
    `MachineConfigPool/${pool.metadata.name}: ${open ? 'unpaused: inside its maintenance window' : 'paused: outside its maintenance windows'}`,
  );
}

/** How many nodes a pool rolls, as a person reads it: a new pool has no status (and no count) yet. */
export function rebootCount(machineCount: number | undefined): string {
  return machineCount === undefined
    ? 'an unknown number of nodes (pool has no status)'
    : `${machineCount} node(s)`;
}
