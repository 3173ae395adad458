import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { egressNeeds, parseEgressHost } from '../../src/install/egress-hosts.js';
import { egressReport } from '../../src/install/egress-report.js';
import { agentNetworkPolicy, type AgentEgress } from '../../src/install/network-policy.js';
import { writeChartLock } from '../../src/render/helm/chart-lock.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('--egress-host (issue 32, item 11)', () => {
  it.each([
    ['registry.npmjs.org', { host: 'registry.npmjs.org', port: 443 }],
    ['Charts.Example.COM:8443', { host: 'charts.example.com', port: 8443 }],
    ['npm.example.com.', { host: 'npm.example.com', port: 443 }],
    ['10.1.2.3:4873', { host: '10.1.2.3', port: 4873 }],
    ['[2001:db8::1]:443', { host: '2001:db8::1', port: 443 }],
    ['localhost', { host: 'localhost', port: 443 }],
  ])('%s → %o', (value, expected) => {
    expect(parseEgressHost(value)).toEqual(expected);
  });

  it('needs the npm registry with a package-lock.json, and each remote chart host from the chart lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-egress-'));
    expect(await egressNeeds(dir)).toEqual([]);
    writeFileSync(join(dir, 'package-lock.json'), '{}');
    await writeChartLock(dir, [
      {
        repo: 'https://charts.example.com/stable',
        name: 'web',
        version: '1.0.0',
        url: 'https://downloads.example.net:8443/web-1.0.0.tgz',
        digest: DIGEST,
      },
      {
        repo: 'oci://registry.example.org/charts',
        name: 'db',
        version: '2.0.0',
        url: `oci://registry.example.org/charts/db@${DIGEST}`,
        digest: DIGEST,
        manifestDigest: DIGEST,
      },
    ]);
    expect(await egressNeeds(dir)).toEqual([
      { host: 'charts.example.com', port: 443, why: ['chart web 1.0.0'] },
      { host: 'downloads.example.net', port: 8443, why: ['chart web 1.0.0'] },
      { host: 'registry.example.org', port: 443, why: ['chart db 2.0.0'] },
      { host: 'registry.npmjs.org', port: 443, why: ['npm ci of package-lock.json'] },
    ]);
  });
});

const EGRESS: AgentEgress = {
  apiserver: { addresses: ['10.0.0.1'], ports: [443] },
  git: { addresses: ['192.0.2.10'], port: 443 },
  dnsServiceAddresses: [],
  extraCidrs: [],
  hosts: [{ host: 'registry.npmjs.org', port: 443, addresses: ['104.16.0.1', '2606:4700::1'] }],
};

describe('the agent NetworkPolicy with --egress-host', () => {
  const policy = (egress: AgentEgress) =>
    agentNetworkPolicy({
      namespace: 'gw',
      name: 'groundwork-agent',
      podLabels: { app: 'agent' },
      labels: {},
      egress,
      ingress: { metricsNamespaces: ['monitoring'] },
      httpPort: 8080,
    }) as unknown as { spec: { egress: { to: unknown[]; ports?: unknown[] }[] } };

  it("allows each host's addresses on its port only", () => {
    expect(policy(EGRESS).spec.egress).toContainEqual({
      to: [{ ipBlock: { cidr: '104.16.0.1/32' } }, { ipBlock: { cidr: '2606:4700::1/128' } }],
      ports: [{ protocol: 'TCP', port: 443 }],
    });
  });

  it('leaves out a host with no address, never an empty `to` (which would mean anywhere)', () => {
    const rules = policy({ ...EGRESS, hosts: [{ host: 'gone.example.com', port: 443, addresses: [] }] }).spec
      .egress;
    expect(rules.every((r) => r.to.length > 0)).toBe(true);
    expect(rules).toHaveLength(3); // DNS, apiserver, git
  });
});

describe('what bootstrap says about egress', () => {
  const needs = [
    { host: 'registry.npmjs.org', port: 443, why: ['npm ci of package-lock.json'] },
    { host: 'charts.example.com', port: 443, why: ['chart web 1.0.0'] },
  ];
  it('lists what the policy allows, and each need with the flag that would allow it', () => {
    const lines = egressReport({ egress: EGRESS, policy: true, needs, gitHost: 'git.example.com' });
    expect(lines).toContain('  --egress-host registry.npmjs.org:443: 104.16.0.1, 2606:4700::1');
    expect(lines).toContain('  registry.npmjs.org:443 (npm ci of package-lock.json): allowed');
    expect(lines).toContain(
      '  charts.example.com:443 (chart web 1.0.0): NOT allowed: add --egress-host charts.example.com:443',
    );
  });

  it('says when nothing limits the agent, and when the platform needs nothing more', () => {
    expect(egressReport({ egress: undefined, policy: false, needs, gitHost: 'g' })).toContain(
      '  charts.example.com:443 (chart web 1.0.0): reachable',
    );
    expect(egressReport({ egress: EGRESS, policy: true, needs: [], gitHost: 'g' }).at(-1)).toMatch(
      /needs nothing else/,
    );
  });
});
