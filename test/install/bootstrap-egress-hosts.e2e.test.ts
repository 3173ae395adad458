import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap } from '../../src/install/bootstrap.js';
import { egressReport } from '../../src/install/egress-report.js';
import { useCluster } from '../harness/cluster.js';
import { bootstrapOptions, bootstrapSession } from '../harness/bootstrap-session.js';
import { platformRepo } from '../harness/agent-repo.js';

const cluster = useCluster({ namespacePrefix: 'gw-egress' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined);
});

const DIGEST = `sha256:${'b'.repeat(64)}`;

interface Policy {
  spec: { egress: { to: { ipBlock?: { cidr: string } }[]; ports?: { protocol: string; port: number }[] }[] };
}

describe('groundwork bootstrap: egress the agent needs beside git (issue 32, item 11)', () => {
  it('allows each --egress-host by the addresses it resolves to, says what the platform needs, and the apiserver accepts it', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`h${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    // The platform locks its npm dependencies and a remote chart: the agent fetches both.
    await repo.publish(
      { namespace: 'team-eg', items: { a: '1' } },
      {
        'package-lock.json': '{ "lockfileVersion": 3, "packages": {} }\n',
        'groundwork-charts.lock.yaml': [
          'apiVersion: groundwork.io/v1',
          'kind: ChartLock',
          'charts:',
          '  - repo: https://localhost:4873/charts',
          '    name: web',
          '    version: 1.0.0',
          '    url: https://localhost:4873/charts/web-1.0.0.tgz',
          `    digest: ${DIGEST}`,
          '',
        ].join('\n'),
      },
      'platform',
    );
    const session = await bootstrapSession(cluster.kubeconfig, cleanups);
    const plan = await planBootstrap(
      session,
      bootstrapOptions(repo.url, ns, {
        networkPolicy: { extraCidrs: [], extraHosts: [{ host: 'localhost', port: 4873 }] },
      }),
    );
    const policy = plan.objects.find(
      (o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'groundwork-agent',
    ) as unknown as Policy;
    const rule = policy.spec.egress.find((r) => r.ports?.some((p) => p.port === 4873));
    expect(rule?.ports).toEqual([{ protocol: 'TCP', port: 4873 }]);
    expect(rule?.to).toContainEqual({ ipBlock: { cidr: '127.0.0.1/32' } });
    expect(rule?.to.every((p) => p.ipBlock && /\/(32|128)$/.test(p.ipBlock.cidr))).toBe(true);

    expect(plan.egress.needs).toEqual([
      { host: 'localhost', port: 4873, why: ['chart web 1.0.0'] },
      { host: 'registry.npmjs.org', port: 443, why: ['npm ci of package-lock.json'] },
    ]);
    const lines = egressReport({
      egress: plan.egress.allowed,
      policy: true,
      needs: plan.egress.needs,
      gitHost: '127.0.0.1',
    });
    expect(lines).toContain('  localhost:4873 (chart web 1.0.0): allowed');
    expect(lines).toContain(
      '  registry.npmjs.org:443 (npm ci of package-lock.json): NOT allowed: add --egress-host registry.npmjs.org:443',
    );

    const changes = await applyBootstrap(session, plan, 'bootstrap-egress');
    expect(changes.error?.message ?? '').toBe('');
    const live = await session.client.request<Policy>(
      'GET',
      `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies/groundwork-agent`,
    );
    expect(live.spec.egress).toContainEqual(rule);
  });
});
