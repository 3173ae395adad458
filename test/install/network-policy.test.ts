import { describe, expect, it } from 'vitest';
import { agentIngress } from '../../src/install/bootstrap-network.js';
import {
  agentNetworkPolicy,
  CLUSTER_DNS_PEERS,
  type AgentIngress,
} from '../../src/install/network-policy.js';

interface Rule {
  to?: unknown[];
  from?: unknown[];
  ports?: { protocol: string; port: number }[];
}

const EGRESS = {
  apiserver: { addresses: ['10.0.0.1'], ports: [6443] },
  git: { addresses: ['203.0.113.7'], port: 443 },
  dnsServiceAddresses: ['172.30.0.10'],
  extraCidrs: [],
};
const policy = (ingress: AgentIngress, egress = EGRESS) =>
  agentNetworkPolicy({
    namespace: 'gw',
    name: 'groundwork-agent',
    podLabels: { app: 'agent' },
    labels: {},
    egress,
    ingress,
    httpPort: 8080,
  }).spec as { ingress: Rule[]; egress: Rule[] };
const byName = (ns: string) => ({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
});
const HTTP = [{ protocol: 'TCP', port: 8080 }];

describe('agentNetworkPolicy', () => {
  it('sends DNS only to the cluster DNS pods (Kubernetes and OpenShift) and the DNS Service IPs', () => {
    const [dns] = policy({ metricsNamespaces: [] }).egress;
    expect(dns).toEqual({
      to: [
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
          podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
        },
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-dns' } },
          podSelector: { matchLabels: { 'dns.operator.openshift.io/daemonset-dns': 'default' } },
        },
        { ipBlock: { cidr: '172.30.0.10/32' } },
      ],
      ports: [
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
        { protocol: 'UDP', port: 5353 },
        { protocol: 'TCP', port: 5353 },
      ],
    });
    expect(dns!.to!.slice(0, 2)).toEqual([...CLUSTER_DNS_PEERS]);
  });

  it('has no egress rule without a destination (an empty `to` would mean anywhere)', () => {
    const spec = policy(
      { metricsNamespaces: [] },
      { ...EGRESS, apiserver: { addresses: [], ports: [443] }, dnsServiceAddresses: [] },
    );
    expect(spec.egress.every((r) => (r.to?.length ?? 0) > 0)).toBe(true);
    expect(spec.egress).toHaveLength(2); // DNS (pods) and git
  });

  it.each<{ name: string; ingress: AgentIngress; rules: Rule[] }>([
    {
      name: 'metrics namespaces only, by name',
      ingress: { metricsNamespaces: ['openshift-monitoring', 'openshift-user-workload-monitoring'] },
      rules: [
        { from: [byName('openshift-monitoring'), byName('openshift-user-workload-monitoring')], ports: HTTP },
      ],
    },
    {
      name: 'webhook from the ingress controller namespace',
      ingress: { metricsNamespaces: ['monitoring'], webhook: { namespaces: ['ingress-nginx'] } },
      rules: [
        { from: [byName('monitoring')], ports: HTTP },
        { from: [byName('ingress-nginx')], ports: HTTP },
      ],
    },
    {
      name: "webhook from OpenShift's routers, by their policy-group label",
      ingress: {
        metricsNamespaces: [],
        webhook: { namespaceLabels: { 'policy-group.network.openshift.io/ingress': '' } },
      },
      rules: [
        {
          from: [{ namespaceSelector: { matchLabels: { 'policy-group.network.openshift.io/ingress': '' } } }],
          ports: HTTP,
        },
      ],
    },
    { name: 'nobody: no rule at all (never an empty `from`)', ingress: { metricsNamespaces: [] }, rules: [] },
    {
      name: 'empty webhook lists and labels allow nobody (an empty selector would select every namespace)',
      ingress: { metricsNamespaces: [], webhook: { namespaceLabels: {} } },
      rules: [],
    },
    {
      name: 'an empty webhook namespace list allows nobody',
      ingress: { metricsNamespaces: [], webhook: { namespaces: [] } },
      rules: [],
    },
  ])('ingress: $name', ({ ingress, rules }) => {
    expect(policy(ingress).ingress).toEqual(rules);
  });
});

describe('agentIngress defaults', () => {
  it.each([
    {
      name: 'OpenShift without a webhook',
      opts: { openshift: true, webhook: false, choices: { extraCidrs: [] } },
      want: { metricsNamespaces: ['openshift-monitoring', 'openshift-user-workload-monitoring'] },
    },
    {
      name: 'OpenShift with a webhook: its routers',
      opts: { openshift: true, webhook: true, choices: { extraCidrs: [] } },
      want: {
        metricsNamespaces: ['openshift-monitoring', 'openshift-user-workload-monitoring'],
        webhook: { namespaceLabels: { 'policy-group.network.openshift.io/ingress': '' } },
      },
    },
    {
      name: 'Kubernetes with a webhook',
      opts: { openshift: false, webhook: true, choices: { extraCidrs: [] } },
      want: { metricsNamespaces: ['monitoring'], webhook: { namespaces: ['ingress-nginx'] } },
    },
    {
      name: 'choices win',
      opts: {
        openshift: true,
        webhook: true,
        choices: { extraCidrs: [], metricsNamespaces: ['prom'], webhookNamespaces: ['traefik'] },
      },
      want: { metricsNamespaces: ['prom'], webhook: { namespaces: ['traefik'] } },
    },
    {
      name: 'no webhook secret: no webhook rule even when namespaces are named',
      opts: { openshift: false, webhook: false, choices: { extraCidrs: [], webhookNamespaces: ['traefik'] } },
      want: { metricsNamespaces: ['monitoring'] },
    },
  ])('$name', ({ opts, want }) => {
    expect(agentIngress(opts)).toEqual(want);
  });
});
