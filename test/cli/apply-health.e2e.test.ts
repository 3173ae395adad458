import { describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { platformDir } from '../harness/platform-dir.js';

const cluster = useCluster({ namespacePrefix: 'gw-apply-health' });

/** A platform with one Deployment of `replicas` (no kubelet runs here: pods never become ready). */
function repo(namespace: string, replicas: number): string {
  return platformDir(
    `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(platform, 'web', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: '${namespace}' },
      spec: { replicas: ${replicas}, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    });
  },
});
`,
    { name: `h${namespace.slice(-6)}` },
  );
}

const env = () => ({ KUBECONFIG: cluster.kubeconfig });

describe('apply reports the health of what it applied', () => {
  it('prints a health table after the change set, and the verdict in JSON', async () => {
    const dir = repo(cluster.namespace, 1);
    const r = await groundwork(['apply', '--dir', dir], { env: env() });
    expect(r.code).toBe(0);
    // No kubelet runs here: the Deployment is never Healthy (Unknown until its controller reports, then Progressing).
    expect(r.stdout).toMatch(/Health: (Unknown|Progressing|Degraded)/);
    expect(r.stdout).toMatch(
      new RegExp(`Deployment/${cluster.namespace}/web +(Unknown|Progressing|Degraded)`),
    );
    const json = JSON.parse(
      (await groundwork(['apply', '--dir', dir, '-o', 'json'], { env: env() })).stdout,
    ) as {
      kind: string;
      health: { overall: { status: string }; objects: { id: string; status: string }[] };
    };
    expect(json.kind).toBe('ChangeSet');
    expect(json.health.objects).toHaveLength(1);
    expect(json.health.overall.status).not.toBe('Healthy');
  });

  it('--wait-workloads fails (exit 2) when a workload does not become Healthy within --timeout', async () => {
    const r = await groundwork(
      ['apply', '--dir', repo(cluster.namespace, 1), '--wait-workloads', '--timeout', '3s'],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--wait-workloads: workloads Healthy: not ready after 3s: Deployment/${cluster.namespace}/web`,
    );
  });

  it('--wait-workloads passes once the workloads are Healthy (a Deployment scaled to zero)', async () => {
    const r = await groundwork(
      ['apply', '--dir', repo(cluster.namespace, 0), '--wait-workloads', '--timeout', '60s'],
      {
        env: env(),
      },
    );
    expect(r.stderr).not.toContain('--wait-workloads:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Health: Healthy');
  });
});
