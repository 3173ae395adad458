import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootstrapObjects, type BootstrapSpec } from '../../src/agent/bootstrap-objects.js';
import { agentRbac } from '../../src/agent/rbac.js';

// Bootstrap's --decryption-secret (README "Secrets"): passed to the agent, which may get that one
// Secret by name (never every Secret of its namespace: that would reach the git credentials).
const AGENT = { namespace: 'gw', inventory: { namespace: 'groundwork-system', name: 'inv' }, objects: [] };
const spec: BootstrapSpec = {
  platform: 'shop',
  overlay: 'prod',
  namespace: 'gw',
  repository: { url: 'https://github.com/acme/platform.git', ref: { branch: 'main' } },
  mode: 'self-heal',
  interval: '60s',
  image: 'groundwork:test',
  replicas: 1,
  rbac: agentRbac(AGENT),
};

const deploymentSchema = z.object({
  spec: z.object({
    template: z.object({ spec: z.object({ containers: z.array(z.object({ args: z.array(z.string()) })) }) }),
  }),
});

function args(s: BootstrapSpec): string[] {
  const deployment = deploymentSchema.parse(bootstrapObjects(s).find((o) => o.kind === 'Deployment'));
  return deployment.spec.template.spec.containers[0]!.args;
}

/** The Secret names the agent may `get` in its namespace. */
function readableSecrets(rbac: ReturnType<typeof agentRbac>): string[] {
  const own = rbac.namespaced.find((n) => n.namespace === 'gw')?.rules ?? [];
  return own
    .filter((r) => r.resources.includes('secrets') && r.verbs.includes('get'))
    .flatMap((r) => r.resourceNames ?? ['<every Secret>']);
}

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
    const without = readableSecrets(agentRbac(AGENT));
    const withKey = readableSecrets(agentRbac({ ...AGENT, decryptionSecret: 'sops-age' }));
    expect(without).not.toContain('sops-age');
    expect(withKey.filter((n) => !without.includes(n))).toEqual(['sops-age']);
    expect(withKey).not.toContain('<every Secret>');
  });
});
