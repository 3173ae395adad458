import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/cluster/api-error.js';
import { LeaseStore, microTime } from '../../src/cluster/lease-store.js';
import { useCluster } from '../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-lease' });

describe('LeaseStore on the real control plane', () => {
  it('creates, reads and updates a Lease with optimistic concurrency', async () => {
    const store = new LeaseStore(cluster.client, cluster.namespace, 'groundwork-agent');
    expect(await store.get()).toBeUndefined();
    const now = microTime(new Date());
    const created = await store.create({
      holderIdentity: 'replica-a',
      leaseDurationSeconds: 15,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    });
    // The apiserver keeps MicroTime as written.
    expect(created.spec).toEqual({
      holderIdentity: 'replica-a',
      leaseDurationSeconds: 15,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    });
    await expect(store.create({ holderIdentity: 'replica-b' })).rejects.toMatchObject({
      reason: 'AlreadyExists',
    });

    const renewed = await store.update(created, { ...created.spec, renewTime: microTime(new Date()) });
    expect(renewed.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    // A writer holding the old resourceVersion loses.
    const stale = await store.update(created, { holderIdentity: 'replica-b' }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiError);
    expect((stale as ApiError).reason).toBe('Conflict');
    expect((await store.get())?.spec?.holderIdentity).toBe('replica-a');
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 67)))).toBe('2025-01-02T03:04:05.067000Z');
  });
});
