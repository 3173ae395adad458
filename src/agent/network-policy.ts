import { isIP } from 'node:net';
import type { K8sObject } from '../core/object.js';

/** Where the agent may connect to: the apiserver, the git host, DNS, and any CIDR the user adds. */
export interface AgentEgress {
  /** Addresses and ports of the apiserver (the `default/kubernetes` EndpointSlice). */
  apiserver: { addresses: string[]; ports: number[] };
  /** Addresses of the git host (resolved at bootstrap) and the port of the repository URL. */
  git: { addresses: string[]; port: number };
  /** Extra CIDRs (`--egress-cidr`), e.g. a git host whose addresses change, or a proxy. */
  extraCidrs: string[];
}

/**
 * A NetworkPolicy for the agent's pods. The synth sandbox cannot stop platform code from using
 * the network (Node's permission model does not cover it), so the cluster does: egress only to
 * DNS, the apiserver and the git host (by address: NetworkPolicies know no host names, so the git
 * host's addresses are the ones it resolved to at bootstrap; re-run bootstrap or add
 * `--egress-cidr` when they change); ingress only to the agent's HTTP port (webhooks, probes,
 * metrics). Pure.
 */
export function agentNetworkPolicy(opts: {
  namespace: string;
  name: string;
  podLabels: Record<string, string>;
  labels: Record<string, string>;
  egress: AgentEgress;
  httpPort: number;
}): K8sObject {
  const cidr = (address: string) =>
    address.includes('/') ? address : `${address}/${isIP(address) === 6 ? 128 : 32}`;
  const peers = (addresses: readonly string[]) =>
    [...new Set(addresses.map(cidr))].sort().map((c) => ({ ipBlock: { cidr: c } }));
  const tcp = (port: number) => ({ protocol: 'TCP', port });
  const egress = [
    // DNS, wherever the cluster runs it (kube-system, openshift-dns).
    { ports: [{ protocol: 'UDP', port: 53 }, tcp(53), { protocol: 'UDP', port: 5353 }, tcp(5353)] },
    {
      to: peers(opts.egress.apiserver.addresses),
      ports: [...new Set(opts.egress.apiserver.ports)].sort((a, b) => a - b).map(tcp),
    },
    { to: peers(opts.egress.git.addresses), ports: [tcp(opts.egress.git.port)] },
    ...(opts.egress.extraCidrs.length > 0 ? [{ to: peers(opts.egress.extraCidrs) }] : []),
  ].filter((rule) => !('to' in rule) || (rule.to?.length ?? 0) > 0);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: opts.name, namespace: opts.namespace, labels: opts.labels },
    spec: {
      podSelector: { matchLabels: opts.podLabels },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [tcp(opts.httpPort)] }],
      egress,
    },
  };
}

/** The port a repository URL connects to (explicit, or 443 for https and 80 for http). */
export function repositoryPort(url: string): number {
  const u = new URL(url);
  if (u.port) return Number(u.port);
  return u.protocol === 'http:' ? 80 : 443;
}
