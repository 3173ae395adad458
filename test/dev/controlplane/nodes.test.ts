import { describe, expect, it } from 'vitest';
import { matchesLabelSelector } from '../../../src/core/label-selector.js';
import { clusterNodes, nodeObject } from '../../../src/dev/controlplane/nodes.js';

const labelsOf = (o: { metadata: { labels?: Record<string, string> } }) => o.metadata.labels ?? {};
// The pools' node selectors, as the OpenShift simulators create them (and as on a cluster).
const POOL = (role: string) => ({ matchLabels: { [`node-role.kubernetes.io/${role}`]: '' } });

describe('clusterNodes and nodeObject', () => {
  it('a Kubernetes cluster: one tainted control-plane node and two workers, labelled as kubeadm and kubelets do', () => {
    const nodes = clusterNodes();
    expect(nodes.map((n) => n.name)).toEqual(['control-plane', 'worker-0', 'worker-1']);
    const objects = nodes.map(nodeObject);
    expect(labelsOf(objects[0]!)).toMatchObject({
      'node-role.kubernetes.io/control-plane': '',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'control-plane',
    });
    expect(objects[0]!.spec).toMatchObject({
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
    });
    expect(labelsOf(objects[1]!)['node-role.kubernetes.io/worker']).toBe('');
    expect(objects[1]!.spec).not.toHaveProperty('taints');
    // KWOK manages exactly these (its annotation selector); each has a pod range and an address of its own.
    for (const o of objects) expect(o.metadata.annotations?.['kwok.x-k8s.io/node']).toBe('fake');
    expect(objects.map((o) => (o.spec as { podCIDR: string }).podCIDR)).toEqual([
      '10.244.0.0/24',
      '10.244.1.0/24',
      '10.244.2.0/24',
    ]);
    expect(
      new Set(objects.map((o) => JSON.stringify((o.status as { addresses: unknown }).addresses))).size,
    ).toBe(3);
    expect((objects[1]!.status as { capacity: Record<string, string> }).capacity).toMatchObject({
      cpu: '4',
      pods: '110',
    });
  });

  it('an OpenShift cluster: three masters in the master pool only, the workers in the worker pool', () => {
    const objects = clusterNodes({ flavour: 'openshift', workers: 3 }).map(nodeObject);
    const inPool = (role: string) =>
      objects.filter((o) => matchesLabelSelector(labelsOf(o), POOL(role))).map((o) => o.metadata.name);
    expect(inPool('master')).toEqual(['master-0', 'master-1', 'master-2']);
    expect(inPool('worker')).toEqual(['worker-0', 'worker-1', 'worker-2']);
    expect(objects[0]!.spec).toMatchObject({
      taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }],
    });
    expect(labelsOf(objects[0]!)['node-role.kubernetes.io/control-plane']).toBe('');
    expect(labelsOf(objects[4]!)['node.openshift.io/os_id']).toBe('rhcos');
  });

  it("a Kubernetes cluster's workers are in the worker pool too (for `cluster up --openshift` on a running instance)", () => {
    const objects = clusterNodes({ workers: 1 }).map(nodeObject);
    expect(
      objects.filter((o) => matchesLabelSelector(labelsOf(o), POOL('worker'))).map((o) => o.metadata.name),
    ).toEqual(['worker-0']);
    expect(clusterNodes({ workers: 0 }).map((n) => n.name)).toEqual(['control-plane']);
  });
});
