import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap } from '../../src/agent/bootstrap.js';
import { ClusterSession } from '../../src/engine/reconcile.js';
import { KubeClient } from '../../src/cluster/client.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo } from '../harness/agent-repo.js';

const cluster = useCluster({ namespacePrefix: 'gw-bootnp' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined);
});

interface Policy {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: { ports: { port: number }[] }[];
    egress: { to?: { ipBlock: { cidr: string } }[]; ports?: { protocol: string; port: number }[] }[];
  };
}

describe('groundwork bootstrap: the agent NetworkPolicy', () => {
  it('limits egress to DNS, the apiserver endpoints and the git host, and the apiserver accepts it', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`n${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: 'team-np', items: { a: '1' } }, {}, 'platform');
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const options = {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal' as const,
      interval: '1m',
      image: 'registry.example.com/groundwork:test',
      replicas: 1,
      networkPolicy: { extraCidrs: ['10.20.0.0/16'] },
    };
    const plan = await planBootstrap(session, options);
    const policy = plan.objects.find((o) => o.kind === 'NetworkPolicy') as unknown as Policy | undefined;
    expect(policy).toBeDefined();
    // What the cluster itself says the apiserver is: the kubernetes Service and its EndpointSlices
    // (the local control plane listens on loopback, which the apiserver never publishes as an
    // endpoint: then the address this session connects to stands in).
    const service = await session.client.request<{ spec: { clusterIP: string; ports: { port: number }[] } }>(
      'GET',
      '/api/v1/namespaces/default/services/kubernetes',
    );
    const server = new URL(session.client.server);
    const apiserver = {
      cidrs: [`${server.hostname}/32`, `${service.spec.clusterIP}/32`].sort(),
      ports: [Number(server.port), ...service.spec.ports.map((p) => p.port)].sort((a, b) => a - b),
    };
    const gitPort = Number(new URL(repo.url).port);
    expect(policy!.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy!.spec.ingress).toEqual([{ ports: [{ protocol: 'TCP', port: 8080 }] }]);
    expect(policy!.spec.egress).toEqual([
      {
        ports: expect.arrayContaining([
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ]),
      },
      {
        to: apiserver.cidrs.map((cidr) => ({ ipBlock: { cidr } })),
        ports: apiserver.ports.map((port) => ({ protocol: 'TCP', port })),
      },
      { to: [{ ipBlock: { cidr: '127.0.0.1/32' } }], ports: [{ protocol: 'TCP', port: gitPort }] },
      { to: [{ ipBlock: { cidr: '10.20.0.0/16' } }] },
    ]);
    // The pods it selects are the agent's.
    const deployment = plan.objects.find((o) => o.kind === 'Deployment') as unknown as {
      spec: { template: { metadata: { labels: Record<string, string> } } };
    };
    expect(deployment.spec.template.metadata.labels).toMatchObject(policy!.spec.podSelector.matchLabels);

    const changes = await applyBootstrap(session, plan, 'bootstrap-np');
    expect(changes.error?.message ?? '').toBe('');
    const live = await session.client.request<Policy>(
      'GET',
      `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies/groundwork-agent`,
    );
    expect(live.spec.egress).toHaveLength(4);
  });

  it('installs none with networkPolicy: false (--no-network-policy)', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`m${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: 'team-np', items: { a: '1' } }, {}, 'platform');
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const plan = await planBootstrap(session, {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal',
      interval: '1m',
      image: 'registry.example.com/groundwork:test',
      replicas: 1,
      networkPolicy: false,
    });
    expect(plan.objects.map((o) => o.kind)).not.toContain('NetworkPolicy');
  });
});
