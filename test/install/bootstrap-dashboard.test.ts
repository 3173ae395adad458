import { describe, expect, it } from 'vitest';
import { bootstrapObjects, type BootstrapSpec } from '../../src/install/bootstrap-objects.js';
import { agentArgs, bootstrapSpec } from '../harness/bootstrap-spec.js';

const spec = bootstrapSpec();
const args = agentArgs;

type Binding = {
  metadata: { name: string };
  roleRef: { kind: string; name: string };
  subjects: { kind: string; name: string; namespace: string }[];
};
const delegations = (s: BootstrapSpec) =>
  (bootstrapObjects(s).filter((o) => o.kind === 'ClusterRoleBinding') as unknown as Binding[]).filter(
    (b) => b.roleRef.name === 'system:auth-delegator',
  );

describe('bootstrap --dashboard', () => {
  it("passes --dashboard to the agent's Deployment and binds its ServiceAccount to system:auth-delegator", () => {
    const withDashboard = { ...spec, dashboard: true };
    expect(args(withDashboard)).toContain('--dashboard');
    expect(delegations(withDashboard)).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ name: 'groundwork:shop-prod:auth-delegator' }),
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'system:auth-delegator',
        },
        subjects: [{ kind: 'ServiceAccount', name: 'groundwork-agent', namespace: 'groundwork-system' }],
      }),
    ]);
  });

  it('without it: no flag and no binding (the agent may not review tokens it has no use for)', () => {
    expect(args(spec)).not.toContain('--dashboard');
    expect(delegations(spec)).toEqual([]);
    // The agent's own ClusterRole stays the only other cluster-wide grant.
    expect(bootstrapObjects(spec).filter((o) => o.kind === 'ClusterRoleBinding')).toHaveLength(1);
  });
});
