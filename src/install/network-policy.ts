import { isIP } from 'node:net';
import type { K8sObject } from '../core/object.js';
import { repoEndpoint } from '../source/repo-url.js';

/** Where the agent may connect to: the apiserver, the git host, DNS, and any CIDR the user adds. */
export interface AgentEgress {
  /** Addresses and ports of the apiserver (the `default/kubernetes` EndpointSlice). */
  apiserver: { addresses: string[]; ports: number[] };
  /** Addresses of the git host (resolved at bootstrap) and the port of the repository URL. */
  git: { addresses: string[]; port: number };
  /**
   * Cluster IPs of the cluster DNS Services found at bootstrap (`kube-system/kube-dns`,
   * `openshift-dns/dns-default`), for CNIs that match a policy before the Service's DNAT.
   */
  dnsServiceAddresses: string[];
  /** Extra CIDRs (`--egress-cidr`), e.g. a git host whose addresses change, or a proxy. */
  extraCidrs: string[];
  /**
   * Extra hosts (`--egress-host`: an npm registry, a chart repository), each with the addresses
   * it resolved to at bootstrap and its port. @default []
   */
  hosts?: { host: string; port: number; addresses: string[] }[];
}

/** Who may connect to the agent's HTTP port (one port: `/metrics`, `/webhook` and the probes). */
export interface AgentIngress {
  /** Namespaces, by name, whose pods may connect (to scrape `/metrics`). */
  metricsNamespaces: string[];
  /**
   * Who may connect to POST `/webhook`: the ingress controller's namespaces, by name or by a
   * namespace label (OpenShift's `policy-group.network.openshift.io/ingress`, which also matches
   * host-network routers). Absent: nobody, as when the agent has no webhook secret.
   */
  webhook?: { namespaces: string[] } | { namespaceLabels: Record<string, string> };
}

/**
 * The cluster DNS pods, on Kubernetes (CoreDNS as `kube-system` pods labelled `k8s-app: kube-dns`,
 * listening on 53) and on OpenShift (the DNS operator's DaemonSet in `openshift-dns`, pods labelled
 * `dns.operator.openshift.io/daemonset-dns: default`, listening on 5353 behind the Service's 53;
 * openshift/cluster-dns-operator `assets/dns/daemonset.yaml`). Both are allowed, with both ports:
 * a selector matches nothing where its namespace does not exist, and `kubernetes.io/metadata.name`
 * is set by the apiserver, so no other namespace can pose as either.
 */
export const CLUSTER_DNS_PEERS = [
  {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
    podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
  },
  {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-dns' } },
    podSelector: { matchLabels: { 'dns.operator.openshift.io/daemonset-dns': 'default' } },
  },
] as const;

/**
 * A NetworkPolicy for the agent's pods. The synth sandbox cannot stop platform code from using
 * the network (Node's permission model does not cover it), so the cluster does: egress only to
 * the cluster DNS pods (`CLUSTER_DNS_PEERS`, and the DNS Services' cluster IPs), the apiserver and
 * the git host (by address: NetworkPolicies know no host names, so the git host's addresses are
 * the ones it resolved to at bootstrap; re-run bootstrap or add `--egress-cidr` when they change),
 * and each `--egress-host` the same way, on its port.
 * Ingress to the HTTP port only from the metrics namespaces and, with a webhook, the ingress
 * controller's namespaces; every other source is refused. With `renderer`, egress to the renderer's
 * pods in the same namespace on its port too (kubelet probes come from the node,
 * which the common CNIs always let through). A rule with no peer is left out, never emitted
 * empty: an empty `to`/`from` would mean "anywhere". It cannot tell paths apart: whoever may
 * reach `/webhook` may also reach `/metrics`, so a Route or Ingress should expose `/webhook` only.
 * Pure.
 */
export function agentNetworkPolicy(opts: {
  namespace: string;
  name: string;
  podLabels: Record<string, string>;
  labels: Record<string, string>;
  egress: AgentEgress;
  ingress: AgentIngress;
  httpPort: number;
  /** The renderer pod the agent sends renders to (`rendererObjects`): egress to its pods on its port. */
  renderer?: { podLabels: Record<string, string>; port: number };
}): K8sObject {
  const cidr = (address: string) =>
    address.includes('/') ? address : `${address}/${isIP(address) === 6 ? 128 : 32}`;
  const peers = (addresses: readonly string[]) =>
    [...new Set(addresses.map(cidr))].sort().map((c) => ({ ipBlock: { cidr: c } }));
  const tcp = (port: number) => ({ protocol: 'TCP', port });
  const byName = (namespace: string) => ({
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
  });
  const webhook = opts.ingress.webhook;
  const ingress = [
    { from: [...new Set(opts.ingress.metricsNamespaces)].sort().map(byName), ports: [tcp(opts.httpPort)] },
    ...(webhook
      ? [
          {
            from:
              'namespaces' in webhook
                ? [...new Set(webhook.namespaces)].sort().map(byName)
                : Object.keys(webhook.namespaceLabels).length > 0 // {} would select every namespace
                  ? [{ namespaceSelector: { matchLabels: webhook.namespaceLabels } }]
                  : [],
            ports: [tcp(opts.httpPort)],
          },
        ]
      : []),
  ].filter((rule) => rule.from.length > 0);
  const egress = [
    {
      to: [...CLUSTER_DNS_PEERS, ...peers(opts.egress.dnsServiceAddresses)],
      ports: [{ protocol: 'UDP', port: 53 }, tcp(53), { protocol: 'UDP', port: 5353 }, tcp(5353)],
    },
    {
      to: peers(opts.egress.apiserver.addresses),
      ports: [...new Set(opts.egress.apiserver.ports)].sort((a, b) => a - b).map(tcp),
    },
    { to: peers(opts.egress.git.addresses), ports: [tcp(opts.egress.git.port)] },
    ...(opts.egress.hosts ?? []).map((h) => ({ to: peers(h.addresses), ports: [tcp(h.port)] })),
    ...(opts.egress.extraCidrs.length > 0 ? [{ to: peers(opts.egress.extraCidrs) }] : []),
    ...(opts.renderer
      ? [
          {
            to: [{ podSelector: { matchLabels: opts.renderer.podLabels } }],
            ports: [tcp(opts.renderer.port)],
          },
        ]
      : []),
  ].filter((rule) => rule.to.length > 0);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: opts.name, namespace: opts.namespace, labels: opts.labels },
    spec: {
      podSelector: { matchLabels: opts.podLabels },
      policyTypes: ['Ingress', 'Egress'],
      ingress,
      egress,
    },
  };
}

/** The port a repository URL connects to (explicit, or 443 for https, 80 for http, 22 for SSH). */
export function repositoryPort(url: string): number {
  return repoEndpoint(url).port;
}
