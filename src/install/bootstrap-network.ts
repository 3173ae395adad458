import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { GroundworkError } from '../core/errors.js';
import { repoEndpoint } from '../source/repo-url.js';
import { repositoryPort, type AgentEgress, type AgentIngress } from './network-policy.js';
import type { EgressHost } from './egress-hosts.js';

/** A Service, as far as the egress rules read it. */
const serviceSchema = z.looseObject({
  spec: z
    .looseObject({
      clusterIP: z.string().optional(),
      ports: z.array(z.looseObject({ port: z.number().optional() })).nullish(),
    })
    .optional(),
});

/** EndpointSlices, as far as the egress rules read them (lists may be null: Go nil slices). */
const endpointSliceListSchema = z.looseObject({
  items: z.array(
    z.looseObject({
      endpoints: z.array(z.looseObject({ addresses: z.array(z.string()).nullish() })).nullish(),
      ports: z.array(z.looseObject({ port: z.number().optional() })).nullish(),
    }),
  ),
});

/** What the user chose for the agent's NetworkPolicy (`groundwork bootstrap` flags). */
export interface NetworkPolicyChoices {
  /** `--egress-cidr` */
  extraCidrs: string[];
  /** `--egress-host`: resolved at bootstrap, as the git host is. @default [] */
  extraHosts?: EgressHost[];
  /**
   * `--metrics-namespace`: namespaces whose pods may scrape `/metrics`.
   * @default OpenShift: `openshift-monitoring` and `openshift-user-workload-monitoring`; else `monitoring`
   */
  metricsNamespaces?: string[];
  /**
   * `--webhook-namespace`: namespaces that may POST `/webhook` (the ingress controller's), used only
   * when the agent has a webhook secret.
   * @default OpenShift: namespaces labelled `policy-group.network.openshift.io/ingress` (routers, on
   * the pod or the host network); else `ingress-nginx`
   */
  webhookNamespaces?: string[];
}

/**
 * Who may reach the agent: the choices, else the defaults of the cluster's flavour. OpenShift is
 * told by the `project.openshift.io` API, which only OpenShift serves. On OpenShift a user may
 * create a project of any free name but none starting with `openshift-`, so only those names are
 * trusted by default; on Kubernetes creating a namespace is an administrator's right. Pure.
 */
export function agentIngress(opts: {
  choices: NetworkPolicyChoices;
  openshift: boolean;
  webhook: boolean;
}): AgentIngress {
  const metricsNamespaces =
    opts.choices.metricsNamespaces ??
    (opts.openshift ? ['openshift-monitoring', 'openshift-user-workload-monitoring'] : ['monitoring']);
  if (!opts.webhook) return { metricsNamespaces };
  const webhook: AgentIngress['webhook'] = opts.choices.webhookNamespaces
    ? { namespaces: opts.choices.webhookNamespaces }
    : opts.openshift
      ? { namespaceLabels: { 'policy-group.network.openshift.io/ingress': '' } }
      : { namespaces: ['ingress-nginx'] };
  return { metricsNamespaces, webhook };
}

/**
 * What the agent must reach: the apiserver (the `default/kubernetes` Service's cluster IP on 443,
 * for CNIs that match before DNAT, and its endpoints from the EndpointSlices, for those that match
 * after; or, where the apiserver publishes no endpoints, the address this client connects to), the
 * cluster DNS Services' cluster IPs, the git host's current addresses, and those of each of
 * `extraHosts` (`--egress-host`) on its port.
 */
export async function agentEgress(
  client: KubeClient,
  repoUrl: string,
  extraCidrs: string[],
  extraHosts: readonly EgressHost[] = [],
): Promise<AgentEgress> {
  const service = (path: string) =>
    client.request('GET', path, { schema: serviceSchema }).catch(() => undefined); // absent: none
  const [apiService, slices, ...dns] = await Promise.all([
    service('/api/v1/namespaces/default/services/kubernetes'),
    client.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      query: { labelSelector: 'kubernetes.io/service-name=kubernetes' },
      schema: endpointSliceListSchema,
    }),
    service('/api/v1/namespaces/kube-system/services/kube-dns'),
    service('/api/v1/namespaces/openshift-dns/services/dns-default'),
  ]);
  const addresses = slices.items.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses ?? []));
  const ports = slices.items.flatMap((s) => (s.ports ?? []).map((p) => p.port ?? 443));
  if (addresses.length === 0) {
    const server = new URL(client.server);
    addresses.push(...(await addressesOf(server.hostname)));
    ports.push(repositoryPort(server.href));
  }
  const clusterIP = apiService?.spec?.clusterIP;
  if (clusterIP && clusterIP !== 'None') {
    addresses.push(clusterIP);
    ports.push(...(apiService?.spec?.ports ?? []).map((p) => p.port ?? 443));
  }
  return {
    apiserver: { addresses, ports },
    git: { addresses: await addressesOf(repoEndpoint(repoUrl).host), port: repositoryPort(repoUrl) },
    dnsServiceAddresses: dns
      .map((s) => s?.spec?.clusterIP)
      .filter((ip): ip is string => Boolean(ip && ip !== 'None')),
    extraCidrs,
    hosts: await Promise.all(
      extraHosts.map(async (h) => ({
        host: h.host,
        port: h.port,
        addresses: await addressesOf(h.host).catch((err: unknown) => {
          throw new GroundworkError({
            code: 'InvalidFlag',
            subject: '--egress-host',
            message: `${h.host} does not resolve from here (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}), so the NetworkPolicy cannot name its addresses`,
            fix: 'check the name, run bootstrap where it resolves as in the cluster, or give its range with --egress-cidr',
          });
        }),
      })),
    ),
  };
}

/** The addresses a host name resolves to now (an IP literal is its own address). */
async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
}
