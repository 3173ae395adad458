import { describe, expect, it } from 'vitest';
import { agentRbac } from '../../src/install/rbac.js';
import { agentArgs, bootstrapSpec, BOOTSTRAP_RBAC, readableSecrets } from '../harness/bootstrap-spec.js';

// Bootstrap's --decryption-secret (README "Secrets"): passed to the agent, which may get that one
// Secret by name (never every Secret of its namespace: that would reach the git credentials).
const AGENT = { ...BOOTSTRAP_RBAC, namespace: 'gw' };
const spec = { ...bootstrapSpec(), namespace: 'gw', rbac: agentRbac(AGENT) };
const args = agentArgs;
const secretsOf = (rbac: ReturnType<typeof agentRbac>) => readableSecrets(rbac, 'gw');

describe('bootstrap --decryption-secret', () => {
  it("passes the flag to the agent's Deployment, and nothing without it", () => {
    expect(args(spec)).not.toContain('--decryption-secret');
    const a = args({ ...spec, decryptionSecret: 'sops-age' });
    expect(a.slice(a.indexOf('--decryption-secret'), a.indexOf('--decryption-secret') + 2)).toEqual([
      '--decryption-secret',
      'sops-age',
    ]);
  });

  it('lets the agent get that one Secret by name, and nothing more', () => {
    const without = secretsOf(agentRbac(AGENT));
    const withKey = secretsOf(agentRbac({ ...AGENT, decryptionSecret: 'sops-age' }));
    expect(without).not.toContain('sops-age');
    expect(withKey.filter((n) => !without.includes(n))).toEqual(['sops-age']);
    expect(withKey).not.toContain('<every Secret>');
  });
});
