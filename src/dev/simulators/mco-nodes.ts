/**
 * The simulated machines of a pool and the node controller's arithmetic over them
 * (machine-config-operator `pkg/controller/node`, `ctrlcommon.GetMachinesByState`). Pure. A machine
 * is either only in the simulator's memory or stands for a Node object (`mco-node-objects.ts`).
 */

/** One simulated node: the configuration it runs, the one it was told to run, and the daemon's state. */
export interface SimNode {
  readonly name: string;
  current: string;
  desired: string;
  state: 'Done' | 'Working' | 'Degraded';
  /** Passes left before a `Working` node finishes. */
  workLeft: number;
  /** The daemon's reason annotation while `Degraded`. */
  reason?: string;
  /**
   * The Node object's `Ready` condition is True (its kubelet, KWOK on the local cluster, reports it).
   * Absent for a machine only in memory, whose kubelet is taken to be Ready.
   */
  ready?: boolean;
}

export interface PoolCounts {
  machineCount: number;
  updatedMachineCount: number;
  readyMachineCount: number;
  unavailableMachineCount: number;
  degradedMachineCount: number;
}

/**
 * Updated: at the target and done; ready: updated and its kubelet Ready (machines only in memory
 * always are). An updated machine is uncordoned, so it is schedulable, as the MCO's ready count asks.
 */
export function countMachines(nodes: readonly SimNode[], target: string): PoolCounts {
  const updated = nodes.filter((n) => n.current === target && n.desired === target && n.state === 'Done');
  return {
    machineCount: nodes.length,
    updatedMachineCount: updated.length,
    readyMachineCount: updated.filter((n) => n.ready !== false).length,
    unavailableMachineCount: nodes.filter(isUnavailable).length,
    degradedMachineCount: nodes.filter((n) => n.state === 'Degraded').length,
  };
}

/** A node being updated (or stuck mid-update) is unavailable: cordoned, drained, rebooting. */
function isUnavailable(n: SimNode): boolean {
  return n.state === 'Working' || n.current !== n.desired;
}

/**
 * `maxUnavailable` as the node controller scales it: an integer, or a percentage of the pool rounded
 * down; never less than 1. @default 1
 */
export function maxUnavailable(value: unknown, machines: number): number {
  if (typeof value === 'number') return Math.max(1, Math.floor(value));
  const pct = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
  if (pct) return Math.max(1, Math.floor((machines * Number(pct[1])) / 100));
  if (typeof value === 'string' && /^\d+$/.test(value)) return Math.max(1, Number(value));
  return 1;
}

/**
 * One pass of the machines: daemons finish the nodes whose work is done (or degrade them when the
 * config cannot be applied, `failures` by rendered name); a node in `draining` (pods still on it)
 * waits for its drain before it counts down; then, unless paused, the controller points at most
 * `maxUnavailable` nodes at a time (counting those already unavailable) to the target, by name.
 */
export function stepNodes(
  nodes: SimNode[],
  opts: {
    target: string;
    paused: boolean;
    maxUnavailable: number;
    workTicks: number;
    failures: ReadonlyMap<string, string>;
    /** Names of Working nodes whose drain has not finished. @default none */
    draining?: ReadonlySet<string>;
  },
): void {
  for (const n of nodes) {
    if (n.state !== 'Working' || opts.draining?.has(n.name)) continue;
    const failure = opts.failures.get(n.desired);
    if (failure) {
      n.state = 'Degraded';
      n.reason = failure;
      continue;
    }
    n.workLeft -= 1;
    if (n.workLeft <= 0) {
      n.current = n.desired;
      n.state = 'Done';
    }
  }
  if (opts.paused) return;
  let capacity = opts.maxUnavailable - nodes.filter(isUnavailable).length;
  for (const n of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) {
    if (capacity <= 0) break;
    if (n.desired === opts.target || n.state === 'Degraded' || isUnavailable(n)) continue;
    n.desired = opts.target;
    n.state = 'Working';
    n.workLeft = opts.workTicks;
    capacity--;
  }
}
