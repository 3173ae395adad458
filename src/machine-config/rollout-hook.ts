import type { StageContext, StageHook } from '../apply/apply.js';
import type { WaitCheck } from '../apply/wait.js';
import { ANNOTATIONS } from '../core/annotations.js';
import { findCondition, type K8sObject } from '../core/object.js';
import type { PlanItem } from '../plan/types.js';
import { poolsSelecting } from './pool-selection.js';
import { parseWindows, windowState } from './window.js';

/** Field manager of the pauses a maintenance window imposes, apart from `groundwork`. */
export const ROLLOUT_MANAGER = 'groundwork-rollout';

const MCP = 'machineconfiguration.openshift.io/v1';
const DEGRADED = ['RenderDegraded', 'NodeDegraded', 'Degraded'];

/**
 * The machine-configs stage's hook: says which pools a MachineConfig change rolls and how many
 * nodes reboot, keeps pools with maintenance windows paused outside their windows (changes wait
 * there and are reported as pending, not failed), and waits for each affected pool to be Updated.
 * Degraded, RenderDegraded or NodeDegraded stops the rollout with the MCO's own message. The master
 * pool's pause is touched only when its construct declares `managePause` (windows imply it on
 * other pools). `now` is injected so tests and the quick start control time.
 */
export function machineConfigRolloutHook(opts: { now?: () => Date } = {}): StageHook {
  const now = opts.now ?? (() => new Date());
  const before = new Map<string, string | undefined>();
  return {
    async beforeApply(ctx) {
      const live = await ctx.target.list(MCP, 'MachineConfigPool', '');
      const affected = affectedPools(ctx.items, live);
      for (const [pool, mcs] of affected) {
        const obj = live.find((p) => p.metadata.name === pool);
        const status = (obj?.status ?? {}) as { machineCount?: number };
        const spec = (obj?.spec ?? {}) as {
          maxUnavailable?: number | string;
          configuration?: { name?: string };
        };
        before.set(pool, spec.configuration?.name);
        ctx.notice(
          `MachineConfigPool/${pool}: ${mcs.join(', ')} → ${rebootCount(status.machineCount)} reboot, maxUnavailable ${spec.maxUnavailable ?? 1}`,
        );
      }
      for (const pool of live) await enforceWindow(ctx, pool, now());
    },
    async check(ctx) {
      const live = await ctx.target.list(MCP, 'MachineConfigPool', '');
      const watched = new Set([
        ...affectedPools(ctx.items, live).keys(),
        ...ctx.items
          .filter((i) => i.ref.kind === 'MachineConfigPool' && i.action !== 'unchanged')
          .map((i) => i.ref.name),
      ]);
      const pending: string[] = [];
      const deferred: string[] = [];
      for (const pool of live.filter((p) => watched.has(p.metadata.name))) {
        await enforceWindow(ctx, pool, now());
        const name = pool.metadata.name;
        const degraded = DEGRADED.map((t) => findCondition(pool, t)).find((c) => c?.status === 'True');
        if (degraded)
          return {
            done: false,
            pending,
            failed: `MachineConfigPool/${name} ${degraded.type}: ${degraded.message ?? degraded.reason ?? ''}`,
          };
        const spec = (pool.spec ?? {}) as { paused?: boolean; configuration?: { name?: string } };
        const status = (pool.status ?? {}) as {
          machineCount?: number;
          updatedMachineCount?: number;
          configuration?: { name?: string };
        };
        const updated =
          findCondition(pool, 'Updated')?.status === 'True' &&
          status.configuration?.name === spec.configuration?.name;
        const rendered =
          !before.has(name) ||
          before.get(name) !== spec.configuration?.name ||
          before.get(name) === undefined;
        if (updated && rendered) continue;
        if (spec.paused) {
          const windows = pool.metadata.annotations?.[ANNOTATIONS.maintenanceWindows];
          const parsed = windows ? parseWindows(windows) : undefined;
          const state = parsed?.ok ? windowState(parsed.windows, now()) : undefined;
          deferred.push(
            `MachineConfigPool/${name}: paused${state && !state.open ? ` until its maintenance window (${state.reason})` : ''}; changes pending`,
          );
          continue;
        }
        pending.push(
          `MachineConfigPool/${name}: ${rendered ? `updating ${status.updatedMachineCount ?? 0}/${status.machineCount ?? '?'}` : 'waiting for the MCO to render the new config'}`,
        );
      }
      if (pending.length === 0 && deferred.length > 0)
        return { done: false, pending: deferred, deferred: deferred.join('; ') };
      if (pending.length > 0 && !ctx.wait)
        return { done: false, pending, deferred: [...pending, ...deferred].join('; ') };
      return { done: pending.length === 0, pending } satisfies WaitCheck;
    },
  };
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
    (i) => i.ref.kind === 'MachineConfig' && (i.action === 'create' || i.action === 'update'),
  )) {
    for (const pool of poolsSelecting(mc.desired!, pools))
      out.set(pool.name, [...(out.get(pool.name) ?? []), `MachineConfig/${mc.ref.name}`]);
  }
  return out;
}

/** Pauses a window-managed pool outside its windows and unpauses it inside them. */
async function enforceWindow(ctx: StageContext, pool: K8sObject, now: Date): Promise<void> {
  const a = pool.metadata.annotations ?? {};
  if (a[ANNOTATIONS.managePause] !== 'true' || !a[ANNOTATIONS.maintenanceWindows]) return;
  const parsed = parseWindows(a[ANNOTATIONS.maintenanceWindows]!);
  const open = parsed.ok ? windowState(parsed.windows, now).open : false;
  const paused = (pool.spec as { paused?: boolean } | undefined)?.paused === true;
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
