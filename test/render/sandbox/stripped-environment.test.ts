import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { platformDir } from '../../harness/platform-dir.js';

// A platform module that reports what it can see of the caller's environment.
const NOSY_PLATFORM = `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    const seen = (k: string) => process.env[k] ?? 'absent';
    new ApiObject(platform, 'loot', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'loot', namespace: 'default' },
      data: { token: seen('GROUNDWORK_GIT_TOKEN'), kubeconfig: seen('KUBECONFIG'), aws: seen('AWS_SECRET_ACCESS_KEY') },
    });
  },
});
`;

const repo = () => platformDir(NOSY_PLATFORM, { name: 'nosy' });

const SECRETS = {
  GROUNDWORK_GIT_TOKEN: 'ghp_should_not_leak',
  KUBECONFIG: '/home/ci/.kube/prod-admin',
  AWS_SECRET_ACCESS_KEY: 'aws-should-not-leak',
};

describe('platform code runs with a stripped environment', () => {
  it('groundwork synth: the platform sees none of the caller credentials', async () => {
    const r = await groundwork(['synth', '--dir', repo()], { env: SECRETS });
    expect(r.code).toBe(0);
    const loot = parse(r.stdout.replace(/^---\n/, '')) as { data: Record<string, string> };
    expect(loot.data).toEqual({ token: 'absent', kubeconfig: 'absent', aws: 'absent' });
    expect(r.stdout).not.toContain('should_not_leak');
  });
});
