import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../../src/core/object.js';
import {
  MCO_NODE_ANNOTATIONS as A,
  nodePatch,
  poolMembers,
  simNodeOf,
} from '../../../src/dev/simulators/mco-node-objects.js';
import { countMachines, stepNodes, type SimNode } from '../../../src/dev/simulators/mco-nodes.js';

const pool = (name: string, role = name): K8sObject => ({
  apiVersion: 'machineconfiguration.openshift.io/v1',
  kind: 'MachineConfigPool',
  metadata: { name },
  spec: { nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${role}`]: '' } } },
});

const node = (
  name: string,
  roles: string[],
  more: { annotations?: Record<string, string>; unschedulable?: boolean; ready?: boolean } = {},
): K8sObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: Object.fromEntries(roles.map((r) => [`node-role.kubernetes.io/${r}`, ''])),
    annotations: more.annotations ?? {},
  },
  spec: more.unschedulable ? { unschedulable: true } : {},
  status: { conditions: [{ type: 'Ready', status: more.ready === false ? 'False' : 'True' }] },
});

const names = (m: Map<string, K8sObject[]>, p: string) => (m.get(p) ?? []).map((n) => n.metadata.name);

describe('MCO simulator over Node objects', () => {
  it('assigns nodes to pools as the MCO does: master wins, a custom pool takes a worker, two custom pools take none', () => {
    const pools = [pool('master'), pool('worker'), pool('infra'), pool('gpu')];
    const members = poolMembers(pools, [
      node('m0', ['master', 'worker']),
      node('w0', ['worker']),
      node('w1', ['worker', 'infra']),
      node('w2', ['worker', 'infra', 'gpu']),
      node('x', []),
    ]);
    expect(names(members, 'master')).toEqual(['m0']);
    expect(names(members, 'worker')).toEqual(['w0']);
    expect(names(members, 'infra')).toEqual(['w1']);
    expect(names(members, 'gpu')).toEqual([]);
  });

  it('a node the MCO has not seen runs the initial config; one with annotations resumes from them', () => {
    expect(simNodeOf(node('w0', ['worker']), 'rendered-worker-a', 2)).toEqual({
      name: 'w0',
      current: 'rendered-worker-a',
      desired: 'rendered-worker-a',
      state: 'Done',
      workLeft: 0,
      ready: true,
    });
    const resumed = simNodeOf(
      node('w1', ['worker'], {
        annotations: {
          [A.current]: 'rendered-worker-a',
          [A.desired]: 'rendered-worker-b',
          [A.state]: 'Working',
        },
        ready: false,
      }),
      'rendered-worker-a',
      2,
    );
    expect(resumed).toMatchObject({
      current: 'rendered-worker-a',
      desired: 'rendered-worker-b',
      state: 'Working',
      workLeft: 2,
      ready: false,
    });
  });

  it('cordons a node it updates, acknowledges the drain only once drained, uncordons it when done', () => {
    const live = node('w0', ['worker'], {
      annotations: {
        [A.current]: 'rendered-worker-a',
        [A.desired]: 'rendered-worker-a',
        [A.state]: 'Done',
        [A.reason]: '',
        [A.desiredDrain]: 'uncordon-rendered-worker-a',
        [A.lastAppliedDrain]: 'uncordon-rendered-worker-a',
      },
    });
    const done: SimNode = {
      name: 'w0',
      current: 'rendered-worker-a',
      desired: 'rendered-worker-a',
      state: 'Done',
      workLeft: 0,
    };
    expect(nodePatch(live, done, { draining: false })).toBeUndefined();

    const working: SimNode = { ...done, desired: 'rendered-worker-b', state: 'Working', workLeft: 1 };
    expect(nodePatch(live, working, { draining: true })).toEqual({
      metadata: {
        annotations: {
          [A.desired]: 'rendered-worker-b',
          [A.state]: 'Working',
          [A.desiredDrain]: 'drain-rendered-worker-b',
        },
      },
      spec: { unschedulable: true },
    });
    const cordoned = node('w0', ['worker'], {
      annotations: {
        ...live.metadata.annotations,
        [A.desired]: 'rendered-worker-b',
        [A.state]: 'Working',
        [A.desiredDrain]: 'drain-rendered-worker-b',
      },
      unschedulable: true,
    });
    expect(nodePatch(cordoned, working, { draining: false })).toEqual({
      metadata: { annotations: { [A.lastAppliedDrain]: 'drain-rendered-worker-b' } },
    });

    const updated: SimNode = { ...working, current: 'rendered-worker-b', state: 'Done', workLeft: 0 };
    expect(nodePatch(cordoned, updated, { draining: false })).toEqual({
      metadata: {
        annotations: {
          [A.current]: 'rendered-worker-b',
          [A.state]: 'Done',
          [A.desiredDrain]: 'uncordon-rendered-worker-b',
          [A.lastAppliedDrain]: 'uncordon-rendered-worker-b',
        },
      },
      spec: { unschedulable: null },
    });
    const degraded: SimNode = { ...working, state: 'Degraded', reason: 'disk full' };
    expect(nodePatch(cordoned, degraded, { draining: false })).toMatchObject({
      metadata: { annotations: { [A.state]: 'Degraded', [A.reason]: 'disk full' } },
    });
    expect(nodePatch(cordoned, degraded, { draining: false })).not.toHaveProperty('spec');
  });

  it('a draining node waits; a NotReady node is updated but not ready', () => {
    const nodes: SimNode[] = [
      { name: 'w0', current: 'a', desired: 'b', state: 'Working', workLeft: 1 },
      { name: 'w1', current: 'b', desired: 'b', state: 'Done', workLeft: 0, ready: false },
    ];
    const opts = {
      target: 'b',
      paused: false,
      maxUnavailable: 1,
      workTicks: 1,
      failures: new Map<string, string>(),
    };
    stepNodes(nodes, { ...opts, draining: new Set(['w0']) });
    expect(nodes[0]).toMatchObject({ state: 'Working', workLeft: 1 });
    stepNodes(nodes, opts);
    expect(nodes[0]).toMatchObject({ state: 'Done', current: 'b' });
    expect(countMachines(nodes, 'b')).toMatchObject({ updatedMachineCount: 2, readyMachineCount: 1 });
  });
});
