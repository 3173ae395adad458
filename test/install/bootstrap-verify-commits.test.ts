import { describe, expect, it } from 'vitest';
import { agentRbac } from '../../src/install/rbac.js';
import { trustedKeysRefOf } from '../../src/agent/trusted-keys-source.js';
import { GroundworkError } from '../../src/core/errors.js';
import { agentArgs, bootstrapSpec, BOOTSTRAP_RBAC } from '../harness/bootstrap-spec.js';

// Bootstrap sets the trusted-commits floor (README "Trusted commits"): the agent's --verify-commits,
// and get on that one Secret or ConfigMap, by name.
const base = BOOTSTRAP_RBAC;
const spec = bootstrapSpec();
const args = agentArgs;

const getRules = (input: Parameters<typeof agentRbac>[0], resource: string) =>
  agentRbac(input)
    .namespaced.flatMap((n) => n.rules)
    .filter((r) => r.resources.includes(resource) && r.verbs.includes('get'));

describe('bootstrap --verify-commits', () => {
  it("passes the flag to the agent's Deployment, and nothing without it", () => {
    expect(args(spec)).not.toContain('--verify-commits');
    const a = args({ ...spec, verifyCommits: 'configmap/keys' });
    expect(a.slice(a.indexOf('--verify-commits'), a.indexOf('--verify-commits') + 2)).toEqual([
      '--verify-commits',
      'configmap/keys',
    ]);
    // The agent refuses --verify-commits without --sync-name (issue 32, item 4): bootstrap names it.
    expect(a).toContain('--sync-name');
    expect(a[a.indexOf('--sync-name') + 1]).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
  });

  it('grants get on the named Secret or ConfigMap only', () => {
    const secret = getRules({ ...base, trustedKeys: trustedKeysRefOf('trusted-keys') }, 'secrets');
    expect(secret.every((r) => r.resourceNames !== undefined)).toBe(true);
    expect(secret.flatMap((r) => r.resourceNames ?? [])).toContain('trusted-keys');
    const cm = getRules({ ...base, trustedKeys: trustedKeysRefOf('configmap/keys') }, 'configmaps');
    expect(cm.flatMap((r) => r.resourceNames ?? [])).toContain('keys');
    expect(getRules(base, 'configmaps').flatMap((r) => r.resourceNames ?? [])).not.toContain('keys');
  });

  it.each(['secret/a/b', 'Bad_Name', 'pod/x', ''])('refuses %j as a trusted keys reference', (flag) => {
    const err = (() => {
      try {
        trustedKeysRefOf(flag);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('TrustedKeysInvalid');
  });
});
