import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap } from '../../src/install/bootstrap.js';
import { useCluster } from '../harness/cluster.js';
import { bootstrapOptions, bootstrapSession } from '../harness/bootstrap-session.js';
import { platformRepo } from '../harness/agent-repo.js';
import { RENDERER_POD_LABELS, RENDERER_PORT } from '../../src/install/renderer-objects.js';

const cluster = useCluster({ namespacePrefix: 'gw-bootnp' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined);
});

interface Policy {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: { from: unknown[]; ports: { port: number }[] }[];
    egress: { to: unknown[]; ports?: { protocol: string; port: number }[] }[];
  };
}

/** A policy's egress rules (the apiserver leaves an empty list out). */
const egressOf = (p: Policy) => (p.spec as { egress?: unknown[] }).egress ?? [];

describe('groundwork bootstrap: the agent NetworkPolicy', () => {
  it('limits egress to the cluster DNS, the apiserver endpoints and the git host, ingress to the monitoring and ingress namespaces, and the apiserver accepts it', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`n${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: 'team-np', items: { a: '1' } }, {}, 'platform');
    const session = await bootstrapSession(cluster.kubeconfig, cleanups);
    const options = bootstrapOptions(repo.url, ns, {
      webhookSecret: 'hook-secret',
      networkPolicy: { extraCidrs: ['10.20.0.0/16'], webhookNamespaces: ['ingress-nginx'] },
    });
    const plan = await planBootstrap(session, options);
    const policy = plan.objects.find(
      (o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'groundwork-agent',
    ) as unknown as Policy | undefined;
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
    // Not OpenShift (no project.openshift.io): metrics from `monitoring`; webhooks from the ingress controller.
    const byName = (n: string) => ({
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': n } },
    });
    expect(policy!.spec.ingress).toEqual([
      { from: [byName('monitoring')], ports: [{ protocol: 'TCP', port: 8080 }] },
      { from: [byName('ingress-nginx')], ports: [{ protocol: 'TCP', port: 8080 }] },
    ]);
    expect(policy!.spec.egress).toEqual([
      {
        // The cluster DNS pods only (this control plane runs no DNS Service to add by address).
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-dns' } },
            podSelector: { matchLabels: { 'dns.operator.openshift.io/daemonset-dns': 'default' } },
          },
        ],
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
      // The renderer pod, where every render is sent (its own policy admits only the agent).
      {
        to: [{ podSelector: { matchLabels: RENDERER_POD_LABELS } }],
        ports: [{ protocol: 'TCP', port: RENDERER_PORT }],
      },
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
    expect(live.spec.egress).toHaveLength(5);
    expect(live.spec.egress[0]!.to).toHaveLength(2); // the apiserver kept the DNS peers
    expect(live.spec.ingress).toHaveLength(2);
    // The agent listens on every interface of its pod (probes and the Service use the pod IP).
    const args = (
      plan.objects.find((o) => o.kind === 'Deployment') as unknown as {
        spec: { template: { spec: { containers: { args: string[] }[] } } };
      }
    ).spec.template.spec.containers[0]!.args;
    expect(args.slice(args.indexOf('--http-bind'), args.indexOf('--http-bind') + 2)).toEqual([
      '--http-bind',
      '0.0.0.0',
    ]);
  });

  it("installs none for the agent with networkPolicy: false (--no-network-policy), but keeps the renderer's, which denies its egress", async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`m${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: 'team-np', items: { a: '1' } }, {}, 'platform');
    const session = await bootstrapSession(cluster.kubeconfig, cleanups);
    const plan = await planBootstrap(session, bootstrapOptions(repo.url, ns, { networkPolicy: false }));
    const policies = plan.objects.filter((o) => o.kind === 'NetworkPolicy');
    expect(policies.map((o) => o.metadata.name)).toEqual(['groundwork-renderer']);
    const renderer = policies[0] as unknown as Policy;
    expect(renderer.spec.podSelector.matchLabels).toEqual(RENDERER_POD_LABELS);
    expect(renderer.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(egressOf(renderer)).toEqual([]);
    const changes = await applyBootstrap(session, plan, 'bootstrap-np-off');
    expect(changes.error?.message ?? '').toBe('');
    const live = await session.client.request<Policy>(
      'GET',
      `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies/groundwork-renderer`,
    );
    expect(egressOf(live)).toEqual([]); // no rule: no egress at all
    expect(live.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });
});
