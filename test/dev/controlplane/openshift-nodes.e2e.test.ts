// `cluster up --openshift`: masters and workers are KWOK nodes in the MachineConfigPools, and the MCO
// simulator rolls a MachineConfig over the workers as the MCO does: one at a time (maxUnavailable 1),
// each cordoned, drained through the Eviction API (a PodDisruptionBudget holds), "rebooted" and
// uncordoned, while KWOK keeps reporting the nodes Ready. The CLI as a user runs it, detached
// processes and all, on an instance of its own.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/cluster/client.js';
import { isAlive } from '../../../src/core/process-alive.js';
import { MCO_NODE_ANNOTATIONS as A } from '../../../src/dev/simulators/mco-node-objects.js';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';
import { useWorkloadBinaries } from '../../harness/workload-binaries.js';

useWorkloadBinaries();
const name = `osn-${Math.random().toString(36).slice(2, 8)}`;
afterAll(async () => {
  await groundwork(['cluster', 'down', '--name', name]);
});

const PLATFORM = `import { ApiObject, MachineConfig, Platform, definePlatform, z } from 'groundwork-gitops';

export default definePlatform({
  values: z.object({ motd: z.boolean().optional() }),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.14' });
    new ApiObject(platform, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    new ApiObject(platform, 'web', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }] } } },
    });
    new ApiObject(platform, 'web-pdb', {
      apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'shop' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    if (v.motd) new MachineConfig(platform, 'motd', {
      pool: 'worker',
      files: [{ path: '/etc/motd', contents: 'managed by groundwork\\n' }],
    });
  },
});
`;

interface Node {
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type: string; status: string }[] };
}
interface Pod {
  metadata: { name: string };
  spec: { nodeName?: string };
  status: { phase: string };
}

describe('cluster up --openshift with KWOK nodes', () => {
  it('the MCO simulator rolls a MachineConfig over the workers one at a time, cordoning and draining each, and down leaves no process', async () => {
    const dir = platformDir(PLATFORM, { name: 'shop-platform' });
    const up = await groundwork(['cluster', 'up', '--name', name, '--openshift', '--dir', dir]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('nodes:      simulated by KWOK');
    const kubeconfig = (await groundwork(['cluster', 'kubeconfig', '--name', name])).stdout.trim();
    const client = await KubeClient.load({ kubeconfig });
    try {
      const nodes = async () => (await client.request<{ items: Node[] }>('GET', '/api/v1/nodes')).items;
      const workers = (list: Node[]) =>
        list.filter((n) => n.metadata.labels?.['node-role.kubernetes.io/worker'] !== undefined);

      const env = { KUBECONFIG: kubeconfig };
      // The Deployment first (two pods, spread over the workers), then the MachineConfig.
      const first = await groundwork(['apply', '--dir', dir, '--wait-workloads', '--timeout', '2m'], { env });
      expect(first.code, first.stderr).toBe(0);
      const podNames = async () =>
        (await client.request<{ items: Pod[] }>('GET', '/api/v1/namespaces/shop/pods')).items
          .filter((p) => p.status.phase === 'Running')
          .map((p) => p.metadata.name);
      const before = await podNames();
      expect(before).toHaveLength(2);

      // Watch the nodes while the rollout runs: how many workers are cordoned at once, and which ever were.
      let watching = true;
      let mostCordoned = 0;
      const everCordoned = new Set<string>();
      const watcher = (async () => {
        while (watching) {
          const cordoned = (await nodes()).filter((n) => n.spec?.unschedulable).map((n) => n.metadata.name);
          mostCordoned = Math.max(mostCordoned, cordoned.length);
          for (const n of cordoned) everCordoned.add(n);
          await sleep(100);
        }
      })();
      writeFileSync(join(dir, 'overlays', 'dev.yaml'), 'motd: true\n');
      const rollout = await groundwork(['apply', '--dir', dir, '--timeout', '3m'], { env });
      watching = false;
      await watcher;
      expect(rollout.code, rollout.stderr).toBe(0);
      expect(rollout.stdout).toContain('MachineConfig/99-worker-motd');
      expect(rollout.stdout).toContain('Health: Healthy');

      const after = await nodes();
      const pool = await client.request<{
        status: { configuration: { name: string }; readyMachineCount: number; machineCount: number };
      }>('GET', '/apis/machineconfiguration.openshift.io/v1/machineconfigpools/worker');
      const target = pool.status.configuration.name;
      expect(pool.status).toMatchObject({ machineCount: 2, readyMachineCount: 2 });
      // Every worker runs the new rendered config, uncordoned, its drain acknowledged, KWOK's Ready intact.
      expect(workers(after).map((n) => n.metadata.name)).toEqual(['worker-0', 'worker-1']);
      for (const n of workers(after)) {
        expect(n.metadata.annotations).toMatchObject({
          [A.current]: target,
          [A.desired]: target,
          [A.state]: 'Done',
          [A.lastAppliedDrain]: `uncordon-${target}`,
        });
        expect(n.spec?.unschedulable).toBeUndefined();
        expect(n.status?.conditions).toContainEqual(
          expect.objectContaining({ type: 'Ready', status: 'True' }),
        );
      }
      // One worker at a time (maxUnavailable 1), each of them once; the masters untouched.
      expect(mostCordoned).toBe(1);
      expect([...everCordoned].sort()).toEqual(['worker-0', 'worker-1']);
      const master = after.find((n) => n.metadata.name === 'master-0')!;
      expect(master.metadata.annotations?.[A.current]).toMatch(/^rendered-master-/);
      expect(master.spec?.unschedulable).toBeUndefined();

      // Both pods were evicted by the drains (new names), and the Deployment is whole again on the workers.
      const pods = (await client.request<{ items: Pod[] }>('GET', '/api/v1/namespaces/shop/pods')).items;
      const running = pods.filter((p) => p.status.phase === 'Running');
      expect(running).toHaveLength(2);
      for (const p of running) expect(p.spec.nodeName).toMatch(/^worker-[01]$/);
      expect(running.map((p) => p.metadata.name).filter((n) => before.includes(n))).toEqual([]);

      const status = JSON.parse(
        (await groundwork(['cluster', 'status', '--name', name, '-o', 'json'])).stdout,
      ) as {
        processes: { name: string; pid: number; alive: boolean }[];
        nodes: { name: string; ready: boolean }[];
      };
      expect(status.processes.map((p) => p.name)).toEqual([
        'etcd',
        'kube-apiserver',
        'kube-controller-manager',
        'kube-scheduler',
        'kwok',
        'openshift-simulators',
      ]);
      expect(status.processes.every((p) => p.alive)).toBe(true);
      expect(status.nodes.filter((n) => n.ready)).toHaveLength(5);

      const down = await groundwork(['cluster', 'down', '--name', name]);
      expect(down.code, down.stderr).toBe(0);
      expect(status.processes.filter((p) => isAlive(p.pid))).toEqual([]);
    } finally {
      client.close();
    }
  });
});
