import { describe, expect, it } from 'vitest';
import { bootstrapObjects, type BootstrapSpec } from '../../src/agent/bootstrap-objects.js';
import { agentRbac } from '../../src/agent/rbac.js';

const spec: BootstrapSpec = {
  platform: 'shop',
  overlay: 'prod',
  namespace: 'groundwork-system',
  repository: { url: 'https://github.com/acme/platform.git', ref: { branch: 'main' } },
  mode: 'self-heal',
  interval: '60s',
  image: 'groundwork:test',
  replicas: 1,
  rbac: agentRbac({
    objects: [],
    namespace: 'groundwork-system',
    inventory: { namespace: 'groundwork-system', name: 'inv' },
    notificationSecrets: ['forge-token'],
  }),
};

/** The agent container's args in the Deployment `bootstrapObjects` makes. */
function args(s: BootstrapSpec): string[] {
  const deployment = bootstrapObjects(s).find((o) => o.kind === 'Deployment') as unknown as {
    spec: { template: { spec: { containers: { args: string[] }[] } } };
  };
  return deployment.spec.template.spec.containers[0]!.args;
}

describe('bootstrap with commit statuses', () => {
  it("passes the commit status flags and cluster name to the agent's Deployment, and none without them", () => {
    expect(args(spec).join(' ')).not.toContain('--commit-status');
    const a = args({
      ...spec,
      commitStatus: { secret: 'forge-token', forge: 'github', dashboardUrl: 'https://dash.example.com/prod' },
      clusterName: 'eu-1',
    });
    expect(a.slice(a.indexOf('--commit-status-secret'))).toEqual([
      '--commit-status-secret',
      'forge-token',
      '--commit-status-forge',
      'github',
      '--dashboard-url',
      'https://dash.example.com/prod',
      '--cluster-name',
      'eu-1',
    ]);
  });

  it('the Role lets the agent get the token Secret by name only', () => {
    const role = bootstrapObjects(spec).find(
      (o) => o.kind === 'Role' && o.metadata.namespace === 'groundwork-system',
    ) as unknown as { rules: { resources: string[]; verbs: string[]; resourceNames?: string[] }[] };
    const gets = role.rules.filter((r) => r.resources.includes('secrets') && r.verbs.includes('get'));
    expect(gets.flatMap((r) => r.resourceNames ?? ['(every Secret)'])).toContain('forge-token');
    expect(gets.every((r) => r.resourceNames)).toBe(true);
  });
});
