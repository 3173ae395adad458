import { countMachines, type PoolCounts, type SimNode } from './mco-nodes.js';

/** A MachineConfigPool condition: the MCO always writes `message` and `reason`, empty or not. */
interface PoolCondition {
  lastTransitionTime: string;
  message: string;
  reason: string;
  status: string;
  type: string;
}

export interface PoolStatus extends PoolCounts {
  conditions: PoolCondition[];
  configuration?: { name: string };
  observedGeneration: number;
}

/**
 * `SetMachineConfigPoolCondition`: nothing when status, reason and message are unchanged; the
 * transition time kept when only reason or message change; the condition moved to the end
 * (which is why real pools list Updated/Updating after the Degraded conditions).
 */
export function setPoolCondition(
  conditions: PoolCondition[],
  next: Omit<PoolCondition, 'lastTransitionTime'>,
  now: string,
): PoolCondition[] {
  const current = conditions.find((c) => c.type === next.type);
  if (
    current &&
    current.status === next.status &&
    current.reason === next.reason &&
    current.message === next.message
  )
    return conditions;
  const lastTransitionTime = current && current.status === next.status ? current.lastTransitionTime : now;
  return [...conditions.filter((c) => c.type !== next.type), { ...next, lastTransitionTime }];
}

/**
 * The pool status the render and node controllers write (`syncFailingStatus`/`syncAvailableStatus`,
 * `calculateStatus`), in the shape of real dumps: the five conditions (RenderDegraded, NodeDegraded,
 * Degraded, Updated, Updating) with their real messages, `configuration.name` once every machine
 * runs the target, the machine counts and `observedGeneration`.
 */
export function poolStatus(opts: {
  previous: PoolStatus | undefined;
  generation: number;
  target: string | undefined;
  nodes: readonly SimNode[];
  paused: boolean;
  renderError: string | undefined;
  now: string;
}): PoolStatus {
  const { target, now } = opts;
  const counts = countMachines(opts.nodes, target ?? '');
  const allUpdated =
    !!target &&
    counts.updatedMachineCount === counts.machineCount &&
    counts.readyMachineCount === counts.machineCount &&
    counts.unavailableMachineCount === 0;
  const degraded = opts.nodes.filter((n) => n.state === 'Degraded');
  const nodeDegradedMessage = degraded
    .map((n) => `Node ${n.name} is reporting: ${JSON.stringify(n.reason ?? '')}`)
    .join(', ');
  const wanted: Omit<PoolCondition, 'lastTransitionTime'>[] = [
    opts.renderError
      ? { type: 'RenderDegraded', status: 'True', reason: '', message: opts.renderError }
      : { type: 'RenderDegraded', status: 'False', reason: '', message: '' },
    degraded.length > 0
      ? {
          type: 'NodeDegraded',
          status: 'True',
          reason: `${degraded.length} nodes are reporting degraded status on sync`,
          message: nodeDegradedMessage,
        }
      : { type: 'NodeDegraded', status: 'False', reason: '', message: '' },
    degraded.length > 0 || opts.renderError
      ? {
          type: 'Degraded',
          status: 'True',
          reason: '',
          message: degraded.length > 0 ? nodeDegradedMessage : '',
        }
      : { type: 'Degraded', status: 'False', reason: '', message: '' },
    allUpdated
      ? {
          type: 'Updated',
          status: 'True',
          reason: '',
          message: `All nodes are updated with MachineConfig ${target}`,
        }
      : { type: 'Updated', status: 'False', reason: '', message: '' },
    allUpdated || !target
      ? { type: 'Updating', status: 'False', reason: '', message: '' }
      : opts.paused
        ? {
            type: 'Updating',
            status: 'False',
            reason: '',
            message: `Pool is paused; will not update to MachineConfig ${target}`,
          }
        : {
            type: 'Updating',
            status: 'True',
            reason: '',
            message: `All nodes are updating to MachineConfig ${target}`,
          },
  ];
  let conditions = opts.previous?.conditions ?? [];
  if (conditions.length === 0) conditions = wanted.map((c) => ({ ...c, lastTransitionTime: now }));
  else for (const c of wanted) conditions = setPoolCondition(conditions, c, now);
  const configuration = allUpdated ? { name: target } : opts.previous?.configuration;
  return {
    conditions,
    ...(configuration ? { configuration } : {}),
    ...counts,
    observedGeneration: opts.generation,
  };
}
