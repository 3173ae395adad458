import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import {
  platformSyncName,
  SyncStatusStore,
  type PlatformSyncObject,
  type PlatformSyncSpec,
} from '../../src/cluster/sync-status-store.js';
import { idOfRef } from '../../src/core/object-id.js';
import { DriftReport } from '../../src/report/drift-report.js';
import {
  nextStatus,
  type SyncEvent,
  type SyncStatus,
  type SyncStatusJson,
} from '../../src/report/sync-status.js';
import { useCluster } from '../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-psync' });
const REV1 = 'main@sha1:1111111111111111111111111111111111111111';
const REV2 = 'main@sha1:2222222222222222222222222222222222222222';
const spec: PlatformSyncSpec = {
  repository: { url: 'https://git.example.com/platform.git', ref: { branch: 'main' }, path: 'platform' },
  overlay: 'prod',
  interval: '5m',
};
const t = (s: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, s));

function writes(client: KubeClient): number {
  return (client.counts.PUT ?? 0) + (client.counts.PATCH ?? 0) + (client.counts.POST ?? 0);
}

function requests(client: KubeClient): number {
  return Object.values(client.counts).reduce((a, b) => a + b, 0);
}

function reconciled(at: Date, generation = 1): SyncEvent {
  return {
    type: 'reconciled',
    at,
    generation,
    revision: REV1,
    applied: true,
    inventory: { objects: 2, byStage: { namespaces: 1, resources: 1 } },
    health: { status: 'Healthy', reason: 'AllHealthy', message: 'all 2 healthy' },
    pending: [{ stage: 'machine-configs', message: 'pool worker waits for its window' }],
  };
}

/** A reconcile of REV1 from scratch: progressing, then reconciled (held by a pending pool). */
function applied(at: Date, generation = 1): SyncStatus {
  const working = nextStatus(undefined, {
    type: 'progressing',
    at,
    generation,
    revision: REV1,
    phase: 'applying',
  });
  return nextStatus(working, reconciled(at, generation));
}

async function client(): Promise<KubeClient> {
  return KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e' });
}

describe('SyncStatusStore on the real control plane', () => {
  it('creates the PlatformSync with its status, then makes zero writes while the status is unchanged', async () => {
    const c = await client();
    const store = new SyncStatusStore(c, { namespace: cluster.namespace });
    const name = platformSyncName('example', 'prod');
    const status = applied(t(5));

    expect(await store.write(name, spec, status)).toBe('updated');
    // Read raw (unchecked) to see exactly what the server kept.
    const live = await cluster.client.request<PlatformSyncObject & { status?: SyncStatusJson }>(
      'GET',
      `/apis/groundwork.io/v1alpha1/namespaces/${cluster.namespace}/platformsyncs/${name}`,
    );
    expect(live.spec).toEqual({ ...spec, mode: 'self-heal' }); // the server default
    // Every field survives the structural schema (else every later compare would differ and write).
    expect(status.equals(live.status)).toBe(true);
    expect(live.status?.conditions.map((c) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
      'Ready=False/Pending',
      'Reconciling=True/Pending',
    ]);

    // A reconcile that finds nothing new: an equal status, and no request at all.
    const noop = nextStatus(status, reconciled(t(50)));
    const before = requests(c);
    expect(await store.write(name, spec, noop)).toBe('unchanged');
    expect(requests(c)).toBe(before);

    // A restarted agent (fresh store) reads once and writes nothing.
    const c2 = await client();
    const restarted = new SyncStatusStore(c2, { namespace: cluster.namespace });
    expect(await restarted.write(name, spec, nextStatus(noop, reconciled(t(90))))).toBe('unchanged');
    expect(writes(c2)).toBe(0);
    expect(c2.counts.GET).toBe(1);

    const read = await restarted.read(name);
    expect(read?.generation).toBe(1);
    expect(read?.status?.equals(status)).toBe(true);
    c.close();
    c2.close();
  });

  it('updates the status when it changes, keeping lastTransitionTime of conditions that hold', async () => {
    const c = await client();
    const store = new SyncStatusStore(c, { namespace: cluster.namespace });
    const name = 'example-prod';
    const first = applied(t(5));
    await store.write(name, spec, first);
    const drift = new DriftReport('example', 'prod', [
      {
        id: idOfRef({ group: '', kind: 'ConfigMap', namespace: 'app', name: 'a' }),
        ref: { group: '', kind: 'ConfigMap', namespace: 'app', name: 'a' },
        type: 'modified',
        fields: [{ path: '/data/x', expected: '1', actual: '2', manager: 'kubectl-edit' }],
      },
    ]).withUnmanaged({
      failOn: false,
      objects: [],
      total: 4,
      counts: [{ namespace: 'app', kind: 'coordination.k8s.io/Lease', count: 4 }],
      unread: [],
    });
    const drifted = nextStatus(first, { type: 'drift', at: t(20), drift });
    const before = writes(c);
    expect(await store.write(name, spec, drifted)).toBe('updated');
    expect(writes(c) - before).toBe(1); // one PUT of the status subresource
    const live = (await store.read(name))!;
    expect(live.status?.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'DriftDetected',
      lastTransitionTime: first.condition('Ready')?.lastTransitionTime,
    });
    expect(live.status?.value.drift?.items).toEqual([
      { object: 'ConfigMap/app/a', type: 'modified', fields: ['/data/x'] },
    ]);
    // The CRD's schema keeps the unmanaged counts (a structural schema would drop an unknown field).
    expect(live.status?.value.unmanaged).toEqual({
      count: 4,
      failOn: false,
      counts: [{ namespace: 'app', kind: 'coordination.k8s.io/Lease', count: 4 }],
    });
    c.close();
  });

  it('retries a status write after a conflicting write by someone else', async () => {
    const c = await client();
    const store = new SyncStatusStore(c, { namespace: cluster.namespace });
    const name = 'example-prod';
    await store.write(name, spec, applied(t(5)));
    // Another writer moves the object on (the store's resourceVersion is now stale).
    await cluster.client.request(
      'PATCH',
      `/apis/groundwork.io/v1alpha1/namespaces/${cluster.namespace}/platformsyncs/${name}`,
      { body: { metadata: { labels: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' },
    );
    const failed = nextStatus(applied(t(5)), {
      type: 'failed',
      at: t(30),
      generation: 1,
      revision: REV2,
      reason: 'SynthFailed',
      constructPath: 'platform/ingress',
      message: 'replicas must be at least 1',
    });
    expect(await store.write(name, spec, failed)).toBe('updated');
    const live = (await store.read(name))!;
    expect(live.status?.stalled).toBe(true);
    expect(live.status?.condition('Stalled')?.message).toContain('platform/ingress');
    expect(live.object.metadata.labels).toMatchObject({ touched: 'yes' });
    c.close();
  });

  it('applies a changed spec (new generation) and never stores credentials from the URL', async () => {
    const c = await client();
    const store = new SyncStatusStore(c, { namespace: cluster.namespace });
    const name = 'example-prod';
    await store.write(name, spec, applied(t(5)));
    const changed: PlatformSyncSpec = {
      ...spec,
      repository: { url: 'https://bot:ghp_tokenvalue@git.example.com/platform.git', ref: { tag: 'v1.2.0' } },
      mode: 'detect-only',
    };
    const ensured = await store.ensure(name, changed);
    expect(ensured.generation).toBe(2);
    expect(ensured.object.spec.repository).toEqual({
      url: 'https://git.example.com/platform.git',
      ref: { tag: 'v1.2.0' },
    });
    expect(JSON.stringify(ensured.object)).not.toContain('ghp_tokenvalue');
    // The same spec again: no request.
    const before = requests(c);
    expect((await store.ensure(name, changed)).generation).toBe(2);
    expect(requests(c)).toBe(before);
    // A status for the new generation is written.
    expect(await store.write(name, changed, applied(t(5), 2))).toBe('updated');
    expect((await store.read(name))?.status?.value.observedGeneration).toBe(2);
    c.close();
  });

  it('shows Ready, Revision, Drifted and Age as printer columns', async () => {
    const c = await client();
    const store = new SyncStatusStore(c, { namespace: cluster.namespace });
    const status = nextStatus(undefined, {
      type: 'reconciled',
      at: t(5),
      generation: 1,
      revision: REV1,
      applied: true,
      inventory: { objects: 0 },
      health: { status: 'Healthy', reason: 'NothingToAssess' },
    });
    await store.write('example-prod', spec, status);
    const table = await c.request<{
      columnDefinitions: { name: string }[];
      rows: { cells: unknown[] }[];
    }>('GET', `/apis/groundwork.io/v1alpha1/namespaces/${cluster.namespace}/platformsyncs`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    const columns = table.columnDefinitions.map((d) => d.name);
    expect(columns.slice(0, 5)).toEqual(['Name', 'Ready', 'Revision', 'Drifted', 'Age']);
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(['example-prod', 'True', REV1]);
    c.close();
  });
});
