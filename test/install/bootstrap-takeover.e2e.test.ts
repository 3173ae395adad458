import { afterEach, describe, expect, it } from 'vitest';
import { applyBootstrap, planBootstrap } from '../../src/install/bootstrap.js';
import { SyncStatusStore, type PlatformSyncSpec } from '../../src/cluster/sync-status-store.js';
import { FIELD_MANAGER } from '../../src/plan/plan.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo } from '../harness/agent-repo.js';
import { bootstrapOptions, bootstrapSession } from '../harness/bootstrap-session.js';

const cluster = useCluster({ namespacePrefix: 'gw-take' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined);
});

interface ManagedField {
  manager: string;
  operation: string;
  fieldsV1?: { 'f:spec'?: Record<string, unknown> };
}

describe('groundwork bootstrap after a hand-run agent (issue 32, item 5)', () => {
  it("takes over its own objects' fields another field manager holds, and they are bootstrap's", async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`t${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: 'team-t', items: { a: '1' } }, {}, 'platform');
    const session = await bootstrapSession(cluster.kubeconfig, cleanups);
    const plan = await planBootstrap(
      session,
      bootstrapOptions(repo.url, ns, { interval: '60s', networkPolicy: false }),
    );
    const sync = plan.objects.find((o) => o.kind === 'PlatformSync')!;
    const spec = (sync as unknown as { spec: PlatformSyncSpec }).spec;

    // A hand-run agent (`groundwork agent --interval 5m`) wrote the PlatformSync first, with its
    // own field manager, as it does (SyncStatusStore.ensure).
    const handRun = new SyncStatusStore(session.client, { namespace: ns });
    await handRun.ensure(sync.metadata.name, { ...spec, interval: '300s' });
    const path = `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs/${sync.metadata.name}`;
    const before = await session.client.request<{ metadata: { managedFields: ManagedField[] } }>('GET', path);
    expect(before.metadata.managedFields.map((f) => f.manager)).toEqual(['groundwork-agent']);

    const changes = await applyBootstrap(session, plan, 'bootstrap-takeover');
    expect(changes.error?.message ?? '').toBe('');

    const after = await session.client.request<{
      spec: { interval: string };
      metadata: { managedFields: ManagedField[] };
    }>('GET', path);
    expect(after.spec.interval).toBe('60s');
    const ownerOf = (field: string) =>
      after.metadata.managedFields
        .filter((f) => f.fieldsV1?.['f:spec']?.[field] !== undefined)
        .map((f) => f.manager);
    expect(ownerOf('f:interval')).toEqual([FIELD_MANAGER]);
    expect(ownerOf('f:mode')).toContain(FIELD_MANAGER);
  });
});
