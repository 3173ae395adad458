import { describe, expect, it } from 'vitest';
import { agentArgs, bootstrapSpec, readableSecrets } from '../harness/bootstrap-spec.js';

const spec = bootstrapSpec({ notificationSecrets: ['forge-token'] });
const args = agentArgs;

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
    const secrets = readableSecrets(spec.rbac);
    expect(secrets).toContain('forge-token');
    expect(secrets).not.toContain('<every Secret>');
  });
});
