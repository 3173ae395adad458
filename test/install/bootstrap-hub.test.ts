import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HUB_CREDENTIALS_SECRET } from '../../src/hub/member-credentials-store.js';
import { bootstrapObjects } from '../../src/install/bootstrap-objects.js';
import { agentRbac } from '../../src/install/rbac.js';
import { agentArgs, BOOTSTRAP_RBAC, bootstrapSpec, flagWithValue } from '../harness/bootstrap-spec.js';

// Bootstrap's --hub secret/<name> (docs/hub.md): passed to the agent's Deployment; the agent's Role
// in its namespace lets it get that Secret and get/update its hub credentials Secret, by name.
const AGENT = { ...BOOTSTRAP_RBAC, namespace: 'gw' };
const spec = { ...bootstrapSpec(), namespace: 'gw', rbac: agentRbac(AGENT) };

const roleSchema = z.object({
  kind: z.literal('Role'),
  metadata: z.object({ namespace: z.string() }),
  rules: z.array(
    z.object({
      resources: z.array(z.string()),
      verbs: z.array(z.string()),
      resourceNames: z.array(z.string()).optional(),
    }),
  ),
});
const secretRules = (s: typeof spec) =>
  bootstrapObjects(s)
    .filter((o) => o.kind === 'Role' && o.metadata.namespace === 'gw')
    .flatMap((o) => roleSchema.parse(o).rules)
    .filter((r) => r.resources.includes('secrets'));

describe('bootstrap --hub', () => {
  it("passes --hub secret/<name> to the agent's Deployment, and nothing without it", () => {
    expect(agentArgs(spec)).not.toContain('--hub');
    expect(flagWithValue(agentArgs({ ...spec, hub: 'secret/hub-bootstrap' }), '--hub')).toEqual([
      '--hub',
      'secret/hub-bootstrap',
    ]);
  });

  it('lets the agent get the bootstrap Secret and get/update its credentials Secret, by name only', () => {
    const before = secretRules(spec);
    const after = secretRules({ ...spec, hub: 'secret/hub-bootstrap' });
    const added = after.filter((r) => !before.some((b) => JSON.stringify(b) === JSON.stringify(r)));
    expect(added).toEqual([
      expect.objectContaining({ verbs: ['get', 'update'], resourceNames: [HUB_CREDENTIALS_SECRET] }),
      expect.objectContaining({ verbs: ['get'], resourceNames: ['hub-bootstrap'] }),
    ]);
    // Only create goes without a name (Kubernetes cannot limit it); it was there before (redaction key).
    expect(after.filter((r) => !r.resourceNames).map((r) => r.verbs)).toEqual([['create']]);
  });

  it('refuses a file: the pod has none', () => {
    expect(() => bootstrapObjects({ ...spec, hub: '/home/me/bootstrap.yaml' })).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid' }),
    );
  });
});
