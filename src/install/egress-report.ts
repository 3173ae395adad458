import type { EgressNeed } from './egress-hosts.js';
import type { AgentEgress } from './network-policy.js';

/**
 * What `bootstrap` says about the agent's egress: what its NetworkPolicy allows (`egress`; undefined
 * with `--no-network-policy`, or when planned without a cluster), then each host the platform
 * needs beside the apiserver and git (`egressNeeds`) and whether the policy lets it through, with
 * the flag that would. One line each, for a terminal. Pure.
 */
export function egressReport(opts: {
  egress: AgentEgress | undefined;
  policy: boolean;
  needs: readonly EgressNeed[];
  gitHost: string;
}): string[] {
  const { egress } = opts;
  const at = (h: { host: string; port: number }) =>
    `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;
  const lines: string[] = [];
  if (!opts.policy) lines.push('Agent egress: not limited (--no-network-policy).');
  else if (!egress)
    lines.push('Agent egress: no NetworkPolicy planned without a cluster (see the note above).');
  else {
    lines.push(
      'Agent egress (its NetworkPolicy; NetworkPolicies know addresses, not names: those resolved now):',
      '  cluster DNS (53, 5353)',
      `  the apiserver: ${[...new Set(egress.apiserver.addresses)].join(', ')} on ${[...new Set(egress.apiserver.ports)].join(', ')}`,
      `  git ${opts.gitHost}: ${egress.git.addresses.join(', ') || 'no address'} on ${egress.git.port}`,
      ...(egress.hosts ?? []).map((h) => `  --egress-host ${at(h)}: ${h.addresses.join(', ')}`),
      ...egress.extraCidrs.map((c) => `  --egress-cidr ${c}`),
    );
  }
  if (opts.needs.length === 0) {
    lines.push(
      'The platform needs nothing else: no package-lock.json, no remote charts in groundwork-charts.lock.yaml.',
    );
    return lines;
  }
  lines.push('The platform also needs:');
  for (const need of opts.needs) {
    const listed =
      (egress?.hosts ?? []).some((h) => h.host === need.host && h.port === need.port) ||
      (need.host === opts.gitHost && egress?.git.port === need.port);
    const verdict = !opts.policy
      ? 'reachable'
      : !egress
        ? `add --egress-host ${at(need)}`
        : listed
          ? 'allowed'
          : egress.extraCidrs.length > 0
            ? `allowed only if its addresses are in --egress-cidr; else add --egress-host ${at(need)}`
            : `NOT allowed: add --egress-host ${at(need)}`;
    lines.push(`  ${at(need)} (${need.why.join('; ')}): ${verdict}`);
  }
  if (opts.policy)
    lines.push(
      '  A host that redirects elsewhere (an OCI registry to its blob storage) needs that host too; one whose addresses change needs --egress-cidr or a proxy.',
    );
  return lines;
}
