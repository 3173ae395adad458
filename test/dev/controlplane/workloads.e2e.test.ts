// Pods run on the local control plane: kube-scheduler binds them to KWOK's nodes and KWOK plays
// their kubelets, so a platform's Deployment, StatefulSet, DaemonSet and Job become Healthy as on a
// cluster, through `groundwork apply` and through the agent (its sync Ready, `sync reconcile` exit 0).
// A control plane of the file's own: nodes are cluster-wide, and the shared one runs no scheduler.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../../src/agent/start.js';
import { LocalControlPlane } from '../../../src/dev/controlplane/control-plane.js';
import { clusterNodes } from '../../../src/dev/controlplane/nodes.js';
import { isAlive } from '../../../src/core/process-alive.js';
import { memoryLogger, platformRepo } from '../../harness/agent-repo.js';
import { agentOptions, syncStatus } from '../../harness/agent-run.js';
import { groundwork } from '../../harness/cli.js';
import { auditedWrites, eventually, useCluster, useDedicatedControlPlane } from '../../harness/cluster.js';
import { platformDir } from '../../harness/platform-dir.js';

const controlPlane = useDedicatedControlPlane({ nodes: clusterNodes() });
const cluster = useCluster({ namespacePrefix: 'gw-workloads', controlPlane });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/**
 * A platform with one of each workload kind in namespace `namespace` (values), which it creates
 * when `createNamespace` (the agent refuses workloads in its own namespace).
 */
const WORKLOADS_MAIN = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';

export default definePlatform({
  values: z.object({ namespace: z.string(), createNamespace: z.boolean().optional() }).passthrough(),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    const ns = v.namespace;
    if (v.createNamespace) new ApiObject(platform, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const pod = (app: string) => ({
      metadata: { labels: { app } },
      spec: { containers: [{ name: app, image: 'registry.example/' + app + ':1' }] },
    });
    new ApiObject(platform, 'web', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: pod('web') },
    });
    new ApiObject(platform, 'db-svc', {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: ns },
      spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] },
    });
    new ApiObject(platform, 'db', {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: pod('db') },
    });
    new ApiObject(platform, 'agent', {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'node-agent', namespace: ns },
      spec: { selector: { matchLabels: { app: 'node-agent' } }, template: pod('node-agent') },
    });
    new ApiObject(platform, 'migrate', {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: ns },
      spec: { backoffLimit: 0, template: { ...pod('migrate'), spec: { ...pod('migrate').spec, restartPolicy: 'Never' } } },
    });
  },
});
`;

interface Pod {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { nodeName?: string };
  status: { phase: string; podIP?: string; conditions?: { type: string; status: string }[] };
}

async function pods(ns: string): Promise<Pod[]> {
  return (await cluster.client.request<{ items: Pod[] }>('GET', `/api/v1/namespaces/${ns}/pods`)).items;
}

describe('workloads on the local control plane (kube-scheduler and KWOK)', () => {
  it('a second control plane with nodes: five processes, and stop() leaves none of them nor its directories', async () => {
    const second = await LocalControlPlane.start({ nodes: clusterNodes({ workers: 1 }) });
    const pids = second.pids;
    try {
      expect(Object.keys(second.info.pids)).toEqual([
        'etcd',
        'kubeApiserver',
        'kubeControllerManager',
        'kubeScheduler',
        'kwok',
      ]);
      expect(pids).toHaveLength(5);
      expect(pids.every(isAlive)).toBe(true);
    } finally {
      await second.stop();
    }
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(second.info.etcdDir)).toBe(false);
    expect(existsSync(second.info.workDir)).toBe(false);
  });

  it('groundwork apply --wait-workloads: a Deployment, StatefulSet, DaemonSet and Job become Healthy, their pods bound to workers', async () => {
    const ns = cluster.namespace;
    const dir = platformDir(WORKLOADS_MAIN, {
      name: `w${ns.slice(-6)}`,
      files: { 'overlays/dev.yaml': JSON.stringify({ namespace: ns }) },
    });
    const r = await groundwork(['apply', '--dir', dir, '--wait-workloads', '--timeout', '90s'], {
      env: { KUBECONFIG: cluster.kubeconfig },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Health: Healthy');
    for (const id of [`Deployment/${ns}/web`, `StatefulSet/${ns}/db`, `DaemonSet/${ns}/node-agent`])
      expect(r.stdout).toMatch(new RegExp(`${id.replaceAll('/', '\\/')}\\s+Healthy`));

    const running = await eventually(
      async () => {
        const list = await pods(ns);
        const job = list.filter((p) => p.metadata.labels?.app === 'migrate');
        return job.length === 1 && job[0]!.status.phase === 'Succeeded' ? list : undefined;
      },
      60_000,
      'the Job pod Succeeded',
    );
    const byApp = (app: string) => running.filter((p) => p.metadata.labels?.app === app);
    expect(byApp('web')).toHaveLength(3);
    expect(
      byApp('db')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['db-0', 'db-1']);
    // The DaemonSet runs where it may: on the two workers, not on the tainted control-plane node.
    expect(
      byApp('node-agent')
        .map((p) => p.spec.nodeName)
        .sort(),
    ).toEqual(['worker-0', 'worker-1']);
    for (const p of running.filter((x) => x.metadata.labels?.app !== 'migrate')) {
      expect(p.status.phase).toBe('Running');
      expect(p.spec.nodeName).toMatch(/^worker-[01]$/);
      // Scheduled by kube-scheduler, given an address from its node's pod range by KWOK.
      expect(p.status.conditions).toContainEqual(
        expect.objectContaining({ type: 'PodScheduled', status: 'True' }),
      );
      expect(p.status.podIP).toMatch(/^10\.244\.[12]\.\d+$/);
    }
    // Each under its own identity (the apiserver's audit log): bindings by the scheduler, pod status by KWOK.
    const writes = auditedWrites(0, undefined, { log: controlPlane.auditLog }).filter((w) =>
      w.uri.startsWith(`/api/v1/namespaces/${ns}/pods/`),
    );
    const by = (suffix: string) =>
      new Set(writes.filter((w) => w.uri.split('?')[0]!.endsWith(suffix)).map((w) => w.user));
    expect(by('/binding')).toEqual(new Set(['system:kube-scheduler']));
    expect(by('/status')).toContain('kwok');
  });

  it('the agent: the sync turns Ready with the workloads Healthy, and `sync reconcile` exits 0', async () => {
    const ns = cluster.namespace;
    const apps = `${ns}-apps`;
    const repo = await platformRepo(`w${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish(
      { namespace: apps, items: {} },
      {
        'platform/main.ts': WORKLOADS_MAIN,
        'overlays/test.yaml': JSON.stringify({ namespace: apps, createNamespace: true }),
      },
      'workloads',
    );
    const logs = memoryLogger();
    const agent = await startAgent(agentOptions(cluster, repo, { log: logs.log, intervalMs: 1000 }));
    cleanups.push(() => agent.stop());
    let last: unknown;
    await eventually(
      async () => {
        const s = await syncStatus(cluster);
        last = s?.conditions;
        const c = s?.conditions?.find((x) => x.type === 'Ready');
        return c?.status === 'True' ? c : undefined;
      },
      90_000,
      'the PlatformSync Ready',
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}; last conditions ${JSON.stringify(last)}\n${logs.text().slice(-3000)}`);
    });

    const reconcile = await groundwork([
      'sync',
      'reconcile',
      '--namespace',
      ns,
      '--kubeconfig',
      cluster.kubeconfig,
      '--timeout',
      '90s',
    ]);
    expect(reconcile.stderr).toBe('');
    expect(reconcile.code).toBe(0);
    expect(reconcile.stdout).toContain('cycle done');
    expect((await pods(apps)).filter((p) => p.status.phase === 'Running')).toHaveLength(3 + 2 + 2);
  });
});
