import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { rbacObjects } from '../../src/install/rbac-objects.js';
import { agentRbac } from '../../src/install/rbac.js';
import { KubeClient } from '../../src/cluster/client.js';
import { reviewAuth } from '../../src/ui/review-auth.js';
import { eventually, ssa, useCluster } from '../harness/cluster.js';
import { serviceAccountKubeconfig, serviceAccountToken } from '../harness/service-account.js';

/**
 * `bootstrap --dashboard`'s binding, judged by the real apiserver: the agent's ServiceAccount,
 * with nothing but what `rbacObjects({ authDelegator: true })` adds, may review a reader's token
 * (TokenReview) and access (SubjectAccessReview); without it, the reviews are forbidden and the
 * dashboard refuses everyone (503).
 */
const cluster = useCluster({ namespacePrefix: 'gw-boot-dash' });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

const request = (bearer: string) => ({ headers: { authorization: `Bearer ${bearer}` } }) as IncomingMessage;

describe('bootstrap --dashboard: the auth-delegator binding', () => {
  it("lets the agent's own token review readers, which it cannot do without the binding", async () => {
    const ns = cluster.namespace;
    const admin = cluster.client;
    for (const name of ['agent', 'reader'])
      await admin.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
        body: { metadata: { name } },
      });
    await ssa(admin, `${RBAC}/namespaces/${ns}/roles/psync-reader`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'psync-reader', namespace: ns },
      rules: [{ apiGroups: ['groundwork.io'], resources: ['platformsyncs'], verbs: ['get'] }],
    });
    await ssa(admin, `${RBAC}/namespaces/${ns}/rolebindings/psync-reader`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'psync-reader', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'psync-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }],
    });
    const agent = await KubeClient.load({
      kubeconfig: await serviceAccountKubeconfig({
        admin,
        adminKubeconfig: cluster.kubeconfig,
        namespace: ns,
        name: 'agent',
      }),
    });
    cleanups.push(async () => agent.close());
    const reader = await serviceAccountToken(cluster.client, ns, 'reader', 600);
    const check = () =>
      reviewAuth({ client: agent, namespace: ns, name: () => undefined }).check(request(reader));

    // Without the binding the agent's token may not create reviews: nobody gets in.
    expect(await check()).toMatchObject({ ok: false, status: 503 });

    const binding = rbacObjects({
      name: `dash-${ns}`,
      namespace: ns,
      serviceAccount: 'agent',
      labels: {},
      rbac: agentRbac({ objects: [], namespace: ns, inventory: { namespace: ns, name: 'inv' } }),
      authDelegator: true,
    }).find((o) => o.metadata.name.endsWith(':auth-delegator'))!;
    await ssa(admin, `${RBAC}/clusterrolebindings/${binding.metadata.name}`, binding);
    cleanups.push(() => admin.request('DELETE', `${RBAC}/clusterrolebindings/${binding.metadata.name}`));

    // RBAC changes reach the authorizer within a moment.
    const outcome = await eventually(
      async () => {
        const o = await check();
        return o.ok === true ? o : undefined;
      },
      10_000,
      'the reviews to be allowed',
    );
    expect(outcome).toMatchObject({ ok: true, user: `system:serviceaccount:${ns}:reader` });
    // An accepted reader is known by its identity (per-reader limits) and carries the reviews of
    // what it may see.
    const accepted = outcome.ok === true ? outcome.reader : undefined;
    expect(accepted?.key).toContain(`system:serviceaccount:${ns}:reader`);
    expect(accepted?.access?.decide).toBeTypeOf('function');
    // The agent itself may not get PlatformSyncs here: the reviews judge the reader, not the agent.
    const stranger = await reviewAuth({ client: agent, namespace: ns, name: () => undefined }).check(
      request(await serviceAccountToken(cluster.client, ns, 'agent', 600)),
    );
    expect(stranger).toMatchObject({ ok: false, status: 403 });
  });
});
