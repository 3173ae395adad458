import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/cluster/api-error.js';
import type { Lease, LeaseSpec } from '../../src/cluster/lease-store.js';
import { HeartbeatLease } from '../../src/hub/heartbeat-lease.js';

/** A Lease store with optimistic concurrency, counting requests; `moveBy` plays another writer. */
class Leases {
  gets = 0;
  updates = 0;
  version = 1;
  spec: LeaseSpec = { holderIdentity: 'm-1', leaseDurationSeconds: 60 };
  gone = false;
  failNext: Error | undefined;
  private lease(): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'member', resourceVersion: String(this.version) },
      spec: this.spec,
    };
  }
  get(): Promise<Lease | undefined> {
    this.gets++;
    return Promise.resolve(this.gone ? undefined : this.lease());
  }
  update(current: Lease, spec: LeaseSpec): Promise<Lease> {
    this.updates++;
    const status = (code: number) =>
      new ApiError({ status: code, method: 'PUT', path: '/lease', body: undefined, text: '' });
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = undefined;
      return Promise.reject(err);
    }
    if (this.gone) return Promise.reject(status(404));
    if (current.metadata.resourceVersion !== String(this.version)) return Promise.reject(status(409));
    this.version++;
    this.spec = spec;
    return Promise.resolve(this.lease());
  }
  moveBy(): void {
    this.version++;
  }
}

describe('HeartbeatLease', () => {
  it('reads the Lease once, then renews with one write each time', async () => {
    const leases = new Leases();
    const beat = new HeartbeatLease('m-1');
    for (let i = 0; i < 4; i++) await beat.renew(leases, 60, new Date(Date.UTC(2026, 10, 28, 12, 0, i)));
    expect({ gets: leases.gets, updates: leases.updates }).toEqual({ gets: 1, updates: 4 });
    expect(leases.spec).toEqual({
      holderIdentity: 'm-1',
      leaseDurationSeconds: 60,
      renewTime: '2026-11-28T12:00:03.000000Z',
    });
  });

  it('reads again when the held Lease moved (409) and still renews in that beat', async () => {
    const leases = new Leases();
    const beat = new HeartbeatLease('m-1');
    await beat.renew(leases, 60);
    leases.moveBy();
    await beat.renew(leases, 60, new Date(Date.UTC(2026, 10, 28, 12, 1, 0)));
    expect({ gets: leases.gets, updates: leases.updates }).toEqual({ gets: 2, updates: 3 });
    expect(leases.spec.renewTime).toBe('2026-11-28T12:01:00.000000Z');
  });

  it('rejects when the Lease is gone, and reads afresh after any other failure', async () => {
    const leases = new Leases();
    const beat = new HeartbeatLease('m-1');
    await beat.renew(leases, 60);
    leases.failNext = new Error('connection reset');
    await expect(beat.renew(leases, 60)).rejects.toThrow('connection reset');
    await beat.renew(leases, 60);
    expect(leases.gets).toBe(2);
    leases.gone = true;
    await expect(beat.renew(leases, 60)).rejects.toThrow('no heartbeat Lease');
  });
});
