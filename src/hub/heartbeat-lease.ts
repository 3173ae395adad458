import { ApiError } from '../cluster/api-error.js';
import { microTime, type Lease, type LeaseSpec, type LeaseStore } from '../cluster/lease-store.js';

/**
 * A member's heartbeat Lease, renewed with one request: the Lease the last renewal returned is
 * written back with a new `renewTime`, as the kubelet's node-lease controller keeps its latest
 * Lease instead of reading it before each renewal. The Lease is read first, and again when a
 * write of the held one is refused because it moved (409) or went (404); any other failure drops
 * what is held and is the caller's. A hub of N members serves N writes per period, not 2N
 * requests.
 */
export class HeartbeatLease {
  private held: Lease | undefined;

  constructor(private readonly holder: string) {}

  /**
   * Renews the Lease through `leases` (the member's current connection: its client changes when
   * its credentials are renewed) for `leaseSeconds`; rejects when the hub refuses or has no Lease.
   */
  async renew(
    leases: Pick<LeaseStore, 'get' | 'update'>,
    leaseSeconds: number,
    now: Date = new Date(),
  ): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) {
      try {
        this.held = await leases.update(held, this.spec(held, leaseSeconds, now));
        return;
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 409 || err.status === 404))) throw err;
      }
    }
    const lease = await leases.get();
    if (!lease) throw new Error('the hub has no heartbeat Lease for this member');
    this.held = await leases.update(lease, this.spec(lease, leaseSeconds, now));
  }

  private spec(lease: Lease, leaseSeconds: number, now: Date): LeaseSpec {
    return {
      ...lease.spec,
      holderIdentity: this.holder,
      leaseDurationSeconds: leaseSeconds,
      renewTime: microTime(now),
    };
  }
}
