import type { K8sObject } from '../core/object.js';
import { formatIssues, summarizeProblems } from '../core/zod-issues.js';
import {
  conditionOf,
  conditionWith,
  describeCondition,
  noStatus,
  staleGeneration,
  statusOf,
} from './fields.js';
import { machineConfigPoolSchema, type MachineConfigPool } from './machine-config-pool-schema.js';
import { verdict, type HealthVerdict } from './types.js';

/** Where a pool's machines stand, read from its status. */
interface PoolProgress {
  machines: number;
  updated: number;
  ready: number;
  unavailable: number;
  degraded: number;
  /** The rendered MachineConfig the machines run (`status.configuration.name`). */
  current: string | undefined;
  /** The rendered MachineConfig the pool wants (`spec.configuration.name`). */
  target: string | undefined;
  /** True when some machine still has to move to the target configuration. */
  pending: boolean;
  paused: boolean;
}

/** Where a parsed pool's machines stand (`readMachineConfigPool` or the schema parses it). */
export function poolProgress(pool: MachineConfigPool): PoolProgress {
  const status = pool.status ?? {};
  const machines = status.machineCount ?? 0;
  const updated = status.updatedMachineCount ?? 0;
  const current = status.configuration?.name || undefined;
  const target = pool.spec?.configuration?.name || undefined;
  const pending =
    conditionOf(pool, 'Updated')?.status !== 'True' ||
    conditionOf(pool, 'Updating')?.status === 'True' ||
    updated < machines ||
    (!!target && !!current && target !== current);
  return {
    machines,
    updated,
    ready: status.readyMachineCount ?? 0,
    unavailable: status.unavailableMachineCount ?? 0,
    degraded: status.degradedMachineCount ?? 0,
    current,
    target,
    pending,
    paused: pool.spec?.paused === true,
  };
}

/**
 * Health of an OpenShift `machineconfiguration.openshift.io/v1` MachineConfigPool, in this order:
 *
 * - `Unknown` (NoStatus) before the machine config controller writes status, and (InvalidObject)
 *   when a field it reads has another type than the MCO writes (`machineConfigPoolSchema`);
 * - `Progressing` (ObservedGenerationOutdated) while it has not observed the latest spec;
 * - `Degraded` when `RenderDegraded` (a MachineConfig cannot be rendered), `NodeDegraded` or
 *   `Degraded` is True, or `degradedMachineCount` is above zero;
 * - `Healthy` (Empty) when the pool has no machines (`machineCount` 0): there is nothing to update,
 *   whatever its conditions say (oc `adm upgrade status` shows such a pool as `Empty`, `workerpool.go`);
 * - `Suspended` (Paused) when `spec.paused` holds pending updates back: not failed, waiting for
 *   an administrator to unpause;
 * - `Progressing` (Updating) while machines move to the target configuration (`Updated` not True,
 *   `Updating` True, fewer updated than machines, or spec and status configurations differ), and
 *   (MachinesNotReady) while updated machines are not ready yet;
 * - `Healthy` (Updated) otherwise, including a paused pool with nothing pending.
 *
 * It does not know which release the rendered configuration belongs to (that is on the rendered
 * MachineConfig), so it cannot tell a pool that is up to date from one an update has not reached
 * yet: see `assessClusterUpdate`.
 */
export function machineConfigPoolHealth(obj: K8sObject): HealthVerdict {
  if (!statusOf(obj)) return noStatus(obj);
  const parsed = machineConfigPoolSchema.safeParse(obj);
  if (!parsed.success)
    return verdict(
      'Unknown',
      'InvalidObject',
      `unexpected shape: ${summarizeProblems(formatIssues(parsed.error.issues))}`,
    );
  const stale = staleGeneration(obj);
  if (stale) return stale;

  for (const type of ['RenderDegraded', 'NodeDegraded', 'Degraded']) {
    const condition = conditionWith(obj, type, 'True');
    if (condition) return verdict('Degraded', type, describeCondition(condition));
  }
  const p = poolProgress(parsed.data);
  if (p.degraded > 0) {
    return verdict('Degraded', 'MachinesDegraded', `${p.degraded} of ${p.machines} machines are degraded`);
  }
  if (p.machines === 0) return verdict('Healthy', 'Empty', 'the pool has no machines: nothing to update');
  const counts = `${p.updated} of ${p.machines} machines updated, ${p.ready} ready, ${p.unavailable} unavailable`;
  if (p.pending && p.paused) {
    return verdict('Suspended', 'Paused', `the pool is paused with pending updates (${counts})`);
  }
  if (p.pending)
    return verdict('Progressing', 'Updating', `updating to ${p.target ?? 'a new configuration'} (${counts})`);
  if (p.ready < p.machines) return verdict('Progressing', 'MachinesNotReady', counts);
  const paused = p.paused ? '; the pool is paused, so new configurations will wait' : '';
  return verdict(
    'Healthy',
    'Updated',
    `all ${p.machines} machines run ${p.current ?? 'the target configuration'}${paused}`,
  );
}
