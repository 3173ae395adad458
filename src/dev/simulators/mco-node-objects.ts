import { matchesLabelSelector } from '../../core/label-selector.js';
import type { K8sObject } from '../../core/object.js';
import type { SimNode } from './mco-nodes.js';

/**
 * The machine-config annotations on a Node: the config the daemon runs and the one the node
 * controller told it to run, the daemon's state and reason, and the drain controller's request and
 * its acknowledgement (`drain-<config>` while cordoned and drained, `uncordon-<config>` after).
 */
export const MCO_NODE_ANNOTATIONS = {
  current: 'machineconfiguration.openshift.io/currentConfig',
  desired: 'machineconfiguration.openshift.io/desiredConfig',
  state: 'machineconfiguration.openshift.io/state',
  reason: 'machineconfiguration.openshift.io/reason',
  desiredDrain: 'machineconfiguration.openshift.io/desiredDrain',
  lastAppliedDrain: 'machineconfiguration.openshift.io/lastAppliedDrain',
} as const;

/**
 * The Node objects of each pool, by pool name, as the MCO assigns them (`GetPoolsForNode`): the
 * pools whose `spec.nodeSelector` matches the node's labels; a node that a custom pool selects
 * belongs to it and not to `worker` (custom pools take precedence); a node selected by two custom
 * pools belongs to neither (the MCO refuses it). Pure.
 */
export function poolMembers(
  pools: readonly K8sObject[],
  nodes: readonly K8sObject[],
): Map<string, K8sObject[]> {
  const members = new Map<string, K8sObject[]>(pools.map((p) => [p.metadata.name, []]));
  for (const node of nodes) {
    const labels = node.metadata.labels ?? {};
    const matching = pools
      .filter((p) =>
        matchesLabelSelector(labels, (p.spec as { nodeSelector?: unknown } | undefined)?.nodeSelector),
      )
      .map((p) => p.metadata.name);
    const custom = matching.filter((name) => name !== 'worker' && name !== 'master');
    const chosen = matching.includes('master') ? ['master'] : custom.length > 0 ? custom : matching;
    if (chosen.length === 1) members.get(chosen[0]!)!.push(node);
  }
  return members;
}

/**
 * The machine a Node stands for. A node the MCO has not seen (no annotations) runs `initial`, as
 * after an install; a node with annotations resumes from them (the simulator restarted mid-update).
 * `ready` is the node's `Ready` condition. Pure.
 */
export function simNodeOf(node: K8sObject, initial: string, workTicks: number): SimNode {
  const a = node.metadata.annotations ?? {};
  const current = a[MCO_NODE_ANNOTATIONS.current] || initial;
  const desired = a[MCO_NODE_ANNOTATIONS.desired] || current;
  const state = a[MCO_NODE_ANNOTATIONS.state];
  const sim: SimNode = {
    name: node.metadata.name,
    current,
    desired,
    state: state === 'Working' || state === 'Degraded' ? state : 'Done',
    workLeft: state === 'Working' ? workTicks : 0,
    ready: nodeReady(node),
  };
  const reason = a[MCO_NODE_ANNOTATIONS.reason];
  if (sim.state === 'Degraded' && reason) sim.reason = reason;
  return sim;
}

/** Whether a Node's `Ready` condition is True. Pure. */
export function nodeReady(node: K8sObject): boolean {
  const conditions = (node.status as { conditions?: { type?: string; status?: string }[] } | undefined)
    ?.conditions;
  return conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * The merge patch that makes `node` show `sim` as the MCO would, or undefined when it already does:
 * the annotations above, and `spec.unschedulable` true while the node is being updated or is
 * degraded (cordoned for the drain), removed when it is done (uncordoned). While `draining` (pods
 * still on it) the drain is requested but not yet acknowledged (`lastAppliedDrain` unchanged). Pure.
 */
export function nodePatch(
  node: K8sObject,
  sim: SimNode,
  opts: { draining: boolean },
): Record<string, unknown> | undefined {
  const done = sim.state === 'Done' && sim.current === sim.desired;
  const wanted: Record<string, string> = {
    [MCO_NODE_ANNOTATIONS.current]: sim.current,
    [MCO_NODE_ANNOTATIONS.desired]: sim.desired,
    [MCO_NODE_ANNOTATIONS.state]: sim.state,
    [MCO_NODE_ANNOTATIONS.reason]: sim.state === 'Degraded' ? (sim.reason ?? '') : '',
    [MCO_NODE_ANNOTATIONS.desiredDrain]: `${done ? 'uncordon' : 'drain'}-${sim.desired}`,
    [MCO_NODE_ANNOTATIONS.lastAppliedDrain]: `${done ? 'uncordon' : 'drain'}-${sim.desired}`,
  };
  if (opts.draining) delete wanted[MCO_NODE_ANNOTATIONS.lastAppliedDrain];
  const live = node.metadata.annotations ?? {};
  const annotations = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => live[k] !== v));
  const cordoned = (node.spec as { unschedulable?: boolean } | undefined)?.unschedulable === true;
  const spec = cordoned === !done ? undefined : { unschedulable: done ? null : true };
  if (Object.keys(annotations).length === 0 && !spec) return undefined;
  return {
    ...(Object.keys(annotations).length ? { metadata: { annotations } } : {}),
    ...(spec ? { spec } : {}),
  };
}
