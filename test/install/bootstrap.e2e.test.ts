import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap } from '../../src/install/bootstrap.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { KubeClient } from '../../src/cluster/client.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo } from '../harness/agent-repo.js';

const cluster = useCluster({ namespacePrefix: 'gw-boot' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined);
});

describe('groundwork bootstrap', () => {
  it('installs the agent with least-privilege RBAC computed from the platform, into its own inventory, idempotently', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`b${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish(
      { namespace: 'team-a', items: { a: '1' }, secret: 'bootstrap-secret' },
      {},
      'platform',
    );
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const options = {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal' as const,
      interval: '1m',
      image: 'registry.example.com/groundwork:test',
      replicas: 2,
      auth: { token: 'git-token-value' },
    };
    const plan = await planBootstrap(session, options);
    const kinds = plan.objects.map((o) => o.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'CustomResourceDefinition',
        'Namespace',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'Role',
        'RoleBinding',
        'Secret',
        'PlatformSync',
        'Deployment',
        'Service',
      ]),
    );
    const changes = await applyBootstrap(session, plan, 'bootstrap-test');
    expect(changes.error?.message ?? '').toBe('');

    const deployment = await session.client.request<{
      spec: {
        replicas: number;
        template: { spec: { serviceAccountName: string; containers: { args: string[] }[] } };
      };
    }>('GET', `/apis/apps/v1/namespaces/${ns}/deployments/groundwork-agent`);
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.containers[0]!.args).toEqual(
      expect.arrayContaining(['agent', '--leader-elect', '--overlay', 'test']),
    );

    // Least privilege, as the API server's authorizer sees it for the agent's service account.
    const can = async (verb: string, group: string, resource: string, namespace?: string) => {
      const review = await session.client.request<{ status: { allowed: boolean } }>(
        'POST',
        '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: `system:serviceaccount:${ns}:groundwork-agent`,
              groups: ['system:serviceaccounts'],
              resourceAttributes: { verb, group, resource, ...(namespace ? { namespace } : {}) },
            },
          },
        },
      );
      return review.status.allowed;
    };
    expect(await can('patch', '', 'configmaps', 'team-a')).toBe(true); // the platform manages ConfigMaps
    expect(await can('delete', '', 'secrets', 'team-a')).toBe(true); // and a Secret
    expect(await can('patch', '', 'configmaps', 'kube-public')).toBe(false); // in team-a only
    expect(await can('list', '', 'secrets')).toBe(false); // not across namespaces
    expect(await can('patch', 'operators.coreos.com', 'installplans', 'team-a')).toBe(false); // no Subscription
    expect(await can('update', 'coordination.k8s.io', 'leases', ns)).toBe(true); // its lease, in its namespace
    expect(await can('update', 'coordination.k8s.io', 'leases', 'kube-system')).toBe(false);
    expect(await can('create', 'apps', 'deployments', 'team-a')).toBe(false); // not a platform kind
    expect(await can('create', 'rbac.authorization.k8s.io', 'clusterroles')).toBe(false);

    // The agent's own objects are in its own inventory, and a second bootstrap changes nothing.
    const inventory = await session.inventory.read('groundwork-agent', `${plan.platform.platform}-test`);
    expect([...(inventory?.objects ?? [])]).toEqual(
      expect.arrayContaining([
        `${ns}_groundwork-agent_apps_Deployment`,
        `${ns}_groundwork-agent__ServiceAccount`,
      ]),
    );
    const again = await observeAndPlan(session, (await planBootstrap(session, options)).inventory, {
      revision: 'bootstrap-test',
    });
    expect(
      again.plan.items.filter((i) => i.action !== 'unchanged').map((i) => `${i.action} ${i.id}`),
    ).toEqual([]);
  });

  it("follows the branch of the overlay's environment when no branch is asked for", async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`e${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const withEnvironments = {
      'groundwork.yaml': [
        `name: e${ns.slice(-6)}`,
        'entry: platform/main.ts',
        'overlays: overlays',
        'defaultOverlay: test',
        'environments:',
        '  - { name: dev, overlays: [dev], ref: main }',
        '  - { name: prod, overlays: [test], ref: env/prod, promotedFrom: dev }',
        '',
      ].join('\n'),
    };
    const promoted = await repo.publish(
      { namespace: 'team-a', items: { promoted: '1' } },
      withEnvironments,
      'promoted',
    );
    repo.repo.git('push', '-q', 'origin', `${promoted}:refs/heads/env/prod`);
    await repo.publish(
      { namespace: 'team-a', items: { unpromoted: '1' } },
      withEnvironments,
      'not promoted yet',
    );
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const plan = await planBootstrap(session, {
      repository: { url: repo.url, ref: { branch: 'main' } },
      followEnvironment: true,
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal',
      interval: '1m',
      image: 'registry.example.com/groundwork:test',
      replicas: 1,
      networkPolicy: false,
    });
    const sync = plan.objects.find((o) => o.kind === 'PlatformSync') as unknown as {
      spec: { repository: { ref: { branch?: string } } };
    };
    expect(sync.spec.repository.ref).toEqual({ branch: 'env/prod' });
    // RBAC and the inventory come from the promoted revision, not from main.
    const names = plan.platform.manifests.map((m) => m.object.metadata.name);
    expect(names).toContain('promoted');
    expect(names).not.toContain('unpromoted');
  });
});
