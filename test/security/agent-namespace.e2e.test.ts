import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { INVENTORY_NAMESPACE } from '../../src/apply/inventory.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { applyBootstrap, planBootstrap, type BootstrapOptions } from '../../src/install/bootstrap.js';
import { agentRbac } from '../../src/install/rbac.js';
import { agentNamespaceProblems } from '../../src/plan/agent-namespace.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { memoryLogger, platformRepo, PLATFORM_MAIN } from '../harness/agent-repo.js';
import { agentOptions, appliedRevision, stalledOnSynth } from '../harness/agent-run.js';
import { ssa, useCluster } from '../harness/cluster.js';
import { removeBootstrapLeftovers } from '../harness/bootstrap-cleanup.js';
import { serviceAccountKubeconfig } from '../harness/service-account.js';

// Attack (issue 31, item 9): bootstrap granted the platform's kinds in the agent's own namespace,
// so a merged commit with a Job there (`serviceAccountName: groundwork-agent`) ran with the agent's
// token, which reads the decryption, git and forge Secrets. The agent now refuses such a revision
// before planning (nothing applied), bootstrap refuses such a platform, and bootstrap's RBAC grants
// the platform nothing in the agent's namespace, so the apiserver refuses the agent's own write.

const cluster = useCluster({ namespacePrefix: 'gw-agentns' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** The agent test platform plus a Job in the overlay's namespace that runs as the agent, and a binding to it from elsewhere. */
const ESCALATING = PLATFORM_MAIN.replace(
  '    if (v.secret) {',
  `    new ApiObject(platform, 'escalate', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'escalate', namespace: v.namespace }, spec: { template: { spec: { serviceAccountName: 'groundwork-agent', restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/token'] }] } } } });
    new ApiObject(platform, 'grant', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'grant', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'ServiceAccount', name: 'groundwork-agent', namespace: v.namespace }] });
    if (v.secret) {`,
);

const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (err: { status?: number }) => err.status ?? 0,
  );

describe("the agent's namespace is not the platform's", () => {
  it('the pure check names a pod-running object, a binding to the agent and the Namespace; other namespaces pass', () => {
    const ns = 'groundwork-system';
    const m = (object: K8sObject, source: string) => ({ object, source });
    const manifests = [
      m(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'd', namespace: ns },
          spec: { template: { spec: { serviceAccountName: 'groundwork-agent' } } },
        },
        'platform/d',
      ),
      m(
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'all-sas' },
          subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }],
        },
        'platform/crb',
      ),
      m({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, 'platform/ns'),
      m(
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'git-creds', namespace: ns } },
        'platform/creds',
      ),
      m({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a' } }, 'platform/c'),
      m({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'team-a' } }, 'platform/j'),
    ];
    const found = agentNamespaceProblems(manifests, {
      namespace: ns,
      scope: 'workloads',
      reserved: [{ kind: 'Secret', name: 'git-creds' }],
    });
    expect(found.map((p) => p.source)).toEqual([
      'platform/d',
      'platform/crb',
      'platform/ns',
      'platform/creds',
    ]);
    expect(agentNamespaceProblems(manifests, { namespace: ns, scope: 'all' }).map((p) => p.source)).toEqual([
      'platform/d',
      'platform/crb',
      'platform/ns',
      'platform/creds',
    ]);
  });

  it('the agent refuses the whole revision before planning: no Job, no binding, no partial apply', async () => {
    const ns = cluster.namespace; // the agent's
    const repo = await platformRepo(`n${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const logs = memoryLogger();
    const agent = await startAgent(agentOptions(cluster, repo, { log: logs.log, debounceMs: 50 }));
    cleanups.push(() => agent.stop());
    const good = await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'good');
    await appliedRevision(cluster, good, 'the good revision applied');

    await repo.publish({ namespace: ns, items: { a: '2' } }, { 'platform/main.ts': ESCALATING }, 'escalate');
    const { s, c } = await stalledOnSynth(cluster, 'Stalled on the escalating commit');
    expect(c.message).toContain('the agent must not apply');
    expect(c.message).toContain(`Job/${ns}/escalate (platform/escalate)`);
    expect(c.message).toContain('RoleBinding/default/grant (platform/grant)');
    expect(s.lastAppliedRevision).toBe(`main@sha1:${good}`);
    const admin = cluster.client;
    expect(await status(admin.request('GET', `/apis/batch/v1/namespaces/${ns}/jobs/escalate`))).toBe(404);
    expect(
      await status(
        admin.request('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/grant'),
      ),
    ).toBe(404);
    const cm = await admin.request<{ data: Record<string, string> }>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps/a`,
    );
    expect(cm.data.value).toBe('1'); // the same commit's ConfigMap change was not applied either
  });

  it("bootstrap refuses a platform in the agent's namespace, and its RBAC lets the agent's token write nothing of the platform's there", async () => {
    const ns = cluster.namespace; // the agent's
    const team = `${ns}-team`;
    const admin = cluster.client;
    cleanups.push(async () => {
      await admin.request('DELETE', `/api/v1/namespaces/${team}`).catch(() => undefined);
    });
    const repo = await platformRepo(`b${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const options: BootstrapOptions = {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal',
      interval: '1m',
      image: 'registry.example.com/groundwork:test',
      replicas: 1,
    };

    await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'into the agent namespace');
    const refused = await planBootstrap(session, options).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'AgentNamespaceRefused' });
    expect(String(refused)).toContain(`ConfigMap/${ns}/a`);

    await repo.publish({ namespace: team, items: { a: '1' } }, {}, 'into a team namespace');
    const plan = await planBootstrap(session, options);
    cleanups.push(() => removeBootstrapLeftovers(admin, plan, 'test'));
    expect((await applyBootstrap(session, plan, 'agent-namespace')).error?.message ?? '').toBe('');
    const kubeconfig = await serviceAccountKubeconfig({
      admin,
      adminKubeconfig: cluster.kubeconfig,
      namespace: ns,
      name: 'groundwork-agent',
    });
    const agentClient = await KubeClient.load({ kubeconfig });
    cleanups.push(async () => agentClient.close());
    const job = (namespace: string) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'escalate', namespace },
      spec: {
        template: {
          spec: {
            serviceAccountName: 'groundwork-agent',
            restartPolicy: 'Never',
            containers: [{ name: 'c', image: 'busybox' }],
          },
        },
      },
    });
    const dryRun = { query: { dryRun: 'All' } };
    // The agent's own token, judged by the apiserver's RBAC authorizer.
    expect(
      await status(
        agentClient.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, { body: job(ns), ...dryRun }),
      ),
    ).toBe(403);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: ns }, data: {} };
    expect(await status(ssa(agentClient, `/api/v1/namespaces/${ns}/configmaps/a`, cm))).toBe(403);
    // Positive control: the platform's own namespace is writable for its kinds.
    const teamCm = { ...cm, metadata: { name: 'probe', namespace: team } };
    expect(
      await status(
        ssa(agentClient, `/api/v1/namespaces/${team}/configmaps/probe`, teamCm, {
          fieldManager: 'groundwork',
        }),
      ),
    ).toBe(200);
  });

  it('bootstrap RBAC grants nothing for objects its inventory still holds in the agent namespace', () => {
    const rbac = agentRbac({
      objects: [
        { group: 'batch', resource: 'jobs', kind: 'Job', namespace: 'groundwork-system', name: 'old' },
        { group: '', resource: 'configmaps', kind: 'ConfigMap', namespace: 'team-a', name: 'c' },
      ],
      namespace: 'groundwork-system',
      inventory: { namespace: INVENTORY_NAMESPACE, name: 'inv' },
    });
    const own = rbac.namespaced.find((r) => r.namespace === 'groundwork-system')!;
    expect(own.rules.flatMap((r) => r.resources)).not.toContain('jobs');
    expect(
      rbac.namespaced.find((r) => r.namespace === 'team-a')!.rules.flatMap((r) => r.resources),
    ).toContain('configmaps');
  });
});
