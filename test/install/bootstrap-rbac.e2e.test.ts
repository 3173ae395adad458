import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap, type BootstrapOptions } from '../../src/install/bootstrap.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { startAgent } from '../../src/agent/start.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';
import { eventually, ssa, useCluster } from '../harness/cluster.js';
import { removeBootstrapLeftovers } from '../harness/bootstrap-cleanup.js';
import { serviceAccountKubeconfig } from '../harness/service-account.js';

const cluster = useCluster({ namespacePrefix: 'gw-rbac' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

type Status = { conditions?: { type: string; status: string; reason: string; message: string }[] };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe("groundwork bootstrap: least-privilege RBAC, as the agent's own token sees it", () => {
  it('one Secret in one namespace: the agent may write Secrets there and nothing else, converges, heals drift, and prunes after a move', async () => {
    const ns = cluster.namespace; // the agent's
    const team = `${ns}-team`; // the platform's: does not exist yet, bootstrap creates it
    const moved = `${ns}-moved`;
    const other = `${ns}-other`;
    const admin = cluster.client;
    await admin.request('POST', '/api/v1/namespaces', { body: { metadata: { name: other } } });
    cleanups.push(async () => {
      for (const n of [team, moved, other])
        await admin.request('DELETE', `/api/v1/namespaces/${n}`).catch(() => undefined);
    });
    const repo = await platformRepo(`r${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: team, items: {}, secret: 'first-value' }, {}, 'one secret');

    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }));
    cleanups.push(async () => session.client.close());
    const options: BootstrapOptions = {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      namespace: ns,
      mode: 'self-heal',
      interval: '1s', // what the agent below (every 500 ms) writes into the PlatformSync
      image: 'registry.example.com/groundwork:test',
      replicas: 1,
    };
    const plan = await planBootstrap(session, options);
    const name = plan.objects.find((o) => o.kind === 'PlatformSync')!.metadata.name;
    cleanups.push(() => removeBootstrapLeftovers(admin, plan, 'test'));
    // The platform's namespace is created before its Role; the ClusterRole writes nothing.
    expect(plan.namespaces.map((o) => o.metadata.name)).toContain(team);
    const clusterRole = plan.objects.find((o) => o.kind === 'ClusterRole') as K8sObject & {
      rules: unknown[];
    };
    expect(clusterRole.rules).toEqual([]);
    expect((await applyBootstrap(session, plan, 'bootstrap-rbac')).error?.message ?? '').toBe('');

    // The agent's ServiceAccount, with a real token: the apiserver's RBAC authorizer decides.
    const kubeconfig = await serviceAccountKubeconfig({
      admin,
      adminKubeconfig: cluster.kubeconfig,
      namespace: ns,
      name: 'groundwork-agent',
    });
    const agentClient = await KubeClient.load({ kubeconfig });
    cleanups.push(async () => agentClient.close());
    const status = (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (err: { status?: number }) => err.status ?? 0,
      );
    const secret = (namespace: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'probe', namespace },
      stringData: { k: 'v' },
    });
    const secretPath = (namespace: string) => `/api/v1/namespaces/${namespace}/secrets/probe`;
    expect(
      await status(ssa(agentClient, secretPath(team), secret(team), { fieldManager: 'groundwork' })),
    ).toBe(200);
    expect(await status(agentClient.request('DELETE', secretPath(team)))).toBe(200);
    expect(await status(ssa(agentClient, secretPath(other), secret(other)))).toBe(403);
    expect(await status(agentClient.request('GET', `/api/v1/namespaces/${other}/secrets`))).toBe(403);
    expect(await status(agentClient.request('GET', '/api/v1/secrets'))).toBe(403);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe', namespace: 'default' } };
    expect(await status(ssa(agentClient, '/api/v1/namespaces/default/configmaps/probe', cm))).toBe(403);
    expect(await status(agentClient.request('GET', '/api/v1/configmaps'))).toBe(403);
    expect(
      await status(
        agentClient.request('POST', '/api/v1/namespaces', { body: { metadata: { name: `${ns}-x` } } }),
      ),
    ).toBe(403);

    // The agent itself, on that token: converges, records its inventory, leads through its Lease.
    const logs = memoryLogger();
    const agent = await startAgent(
      agentOptions(cluster, repo, {
        syncName: name,
        kubeconfig,
        log: logs.log,
        debounceMs: 50,
        maxPruneShare: 1,
        leaderElection: { leaseDurationMs: 15_000 },
      }),
    );
    cleanups.push(() => agent.stop());
    const liveSecret = (namespace: string) =>
      admin.request<{ data?: Record<string, string> }>(
        'GET',
        `/api/v1/namespaces/${namespace}/secrets/creds`,
      );
    const ready = () =>
      eventually(
        async () => {
          const sync = await admin.request<{ status?: Status }>(
            'GET',
            `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs/${name}`,
          );
          return sync.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True'
            ? true
            : undefined;
        },
        60_000,
        'PlatformSync Ready',
      );
    await ready();
    expect((await liveSecret(team)).data?.token).toBe(b64('first-value'));
    const inventory = await session.inventory.read(plan.platform.platform, 'test');
    expect([...(inventory?.objects ?? [])]).toEqual([`${team}_creds__Secret`]);

    // Drift is seen by its per-namespace watch and healed, with an Event on the Secret.
    await ssa(
      admin,
      `/api/v1/namespaces/${team}/secrets/creds`,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'creds', namespace: team },
        data: { token: b64('edited') },
      },
      { fieldManager: 'intruder', force: true },
    );
    await eventually(
      async () => ((await liveSecret(team)).data?.token === b64('first-value') ? true : undefined),
      30_000,
      'drift healed',
    );
    await eventually(
      async () => {
        const events = await admin.request<{ items: { reason?: string }[] }>(
          'GET',
          `/apis/events.k8s.io/v1/namespaces/${team}/events`,
        );
        return events.items.some((e) => e.reason === 'DriftCorrected') ? true : undefined;
      },
      30_000,
      'DriftCorrected Event',
    );

    // The Secret moves to a namespace the RBAC does not cover: Forbidden until bootstrap runs
    // again; that bootstrap keeps the old namespace's Role while the inventory still holds an object
    // there, so the agent can prune it; the next bootstrap drops that Role.
    await admin.request('POST', '/api/v1/namespaces', { body: { metadata: { name: moved } } });
    await repo.publish({ namespace: moved, items: {}, secret: 'first-value' }, {}, 'move the secret');
    await eventually(
      async () => {
        const sync = await admin.request<{ status?: Status }>(
          'GET',
          `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs/${name}`,
        );
        return sync.status?.conditions?.some((c) => /forbidden/i.test(c.message)) ? true : undefined;
      },
      30_000,
      'Forbidden reported',
    );
    const again = await planBootstrap(session, options);
    const roleNamespaces = (p: typeof plan) =>
      p.objects.filter((o) => o.kind === 'Role').map((o) => o.metadata.namespace);
    expect(roleNamespaces(again)).toEqual(expect.arrayContaining([team, moved]));
    expect((await applyBootstrap(session, again, 'bootstrap-rbac-2')).error?.message ?? '').toBe('');
    await eventually(
      async () => {
        const inv = await session.inventory.read(plan.platform.platform, 'test');
        return [...(inv?.objects ?? [])].join() === `${moved}_creds__Secret` ? true : undefined;
      },
      60_000,
      'moved and pruned',
    );
    await expect(liveSecret(team)).rejects.toMatchObject({ status: 404 });
    await ready();
    const third = await planBootstrap(session, options);
    expect(roleNamespaces(third)).not.toContain(team);
    expect(roleNamespaces(third)).toContain(moved);

    // Nothing the agent did was refused outside the move (a missing permission shows up here).
    const forbidden = logs
      .text()
      .split('\n')
      .filter((l) => /forbidden/i.test(l) && !l.includes(moved));
    expect(forbidden).toEqual([]);
  }, 180_000);
});
