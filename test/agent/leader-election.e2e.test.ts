import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaderElector } from '../../src/agent/leader-election.js';
import { ConnectionError } from '../../src/cluster/api-error.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { Lease } from '../../src/cluster/lease-store.js';
import { useCluster } from '../harness/cluster.js';

const cluster = useCluster({ namespacePrefix: 'gw-leader' });
// Short durations so that takeovers happen within seconds (the defaults are 15000/10000/2000).
const LEASE = 3000;
const RENEW_DEADLINE = 2000;
const RETRY = 500;
const LEASE_NAME = 'groundwork-agent';

/** Two (or more) electors on their own clients, with a log of who led when. */
class Replicas {
  readonly electors = new Map<string, LeaderElector>();
  readonly clients = new Map<string, KubeClient>();
  readonly started = new Map<string, number>();
  readonly stopped = new Map<string, number>();
  readonly leading = new Set<string>();
  /** Times two replicas ran leader work at once (must stay 0). */
  overlaps = 0;
  private readonly runs: Promise<void>[] = [];

  async add(identity: string, opts: { leaseMs?: number } = {}): Promise<LeaderElector> {
    const client = await KubeClient.load({
      kubeconfig: cluster.kubeconfig,
      userAgent: `groundwork-e2e-${identity}`,
    });
    const elector = new LeaderElector({
      client,
      name: LEASE_NAME,
      namespace: cluster.namespace,
      identity,
      leaseDurationMs: opts.leaseMs ?? LEASE,
      renewDeadlineMs: RENEW_DEADLINE,
      retryPeriodMs: RETRY,
      onStartedLeading: (signal) => {
        if (this.leading.size > 0) this.overlaps++;
        this.leading.add(identity);
        this.started.set(identity, performance.now());
        // The leader's work: runs until the elector aborts it.
        return new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            this.leading.delete(identity);
            resolve();
          }),
        );
      },
      onStoppedLeading: () => this.stopped.set(identity, performance.now()),
    });
    this.electors.set(identity, elector);
    this.clients.set(identity, client);
    this.runs.push(elector.run());
    return elector;
  }

  get(identity: string): LeaderElector {
    return this.electors.get(identity)!;
  }

  /** Waits until someone leads and returns [leader, the other]. */
  async leader(): Promise<[string, string]> {
    const id = await until(() => [...this.leading][0]);
    const other = [...this.electors.keys()].find((k) => k !== id)!;
    return [id, other];
  }

  async close(): Promise<void> {
    await Promise.all([...this.electors.values()].map((e) => e.stop()));
    await Promise.all(this.runs);
    for (const c of this.clients.values()) c.close();
  }
}

async function until<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolves just after the holder's next renewal (the Lease's resourceVersion moves). */
async function afterNextRenewal(): Promise<void> {
  const before = (await lease()).metadata.resourceVersion;
  for (;;) {
    if ((await lease()).metadata.resourceVersion !== before) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function lease(): Promise<Lease> {
  return cluster.client.request<Lease>(
    'GET',
    `/apis/coordination.k8s.io/v1/namespaces/${cluster.namespace}/leases/${LEASE_NAME}`,
  );
}

describe('LeaderElector with two replicas on the real control plane', () => {
  let replicas: Replicas;
  afterEach(async () => {
    await replicas.close();
    expect(replicas.overlaps).toBe(0);
  });

  it('elects exactly one leader, and a crashed leader is replaced once its lease expires', async () => {
    replicas = new Replicas();
    await replicas.add('replica-a');
    await replicas.add('replica-b');
    const [leader, standby] = await replicas.leader();
    // Several retry periods later, still exactly one leader, and the standby knows who it is.
    await new Promise((r) => setTimeout(r, 3 * RETRY));
    expect([...replicas.leading]).toEqual([leader]);
    expect(replicas.get(standby).isLeader).toBe(false);
    expect(replicas.get(standby).leader).toBe(leader);
    expect((await lease()).spec).toMatchObject({
      holderIdentity: leader,
      leaseDurationSeconds: 3,
      leaseTransitions: 0,
    });
    expect((await lease()).spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // A crash: the leader stops renewing without releasing the lease.
    await afterNextRenewal();
    const lastRenewal = Date.parse((await lease()).spec!.renewTime!);
    await replicas.get(leader).stop({ release: false });
    await until(() => replicas.started.get(standby));
    const taken = (await lease()).spec!;
    expect(taken).toMatchObject({ holderIdentity: standby, leaseTransitions: 1 });
    // Causality, read from the lease itself: the standby acquired it only once the crashed leader's
    // last renewal had expired (a whole lease duration later), never while it was still valid.
    expect(Date.parse(taken.acquireTime!) - lastRenewal).toBeGreaterThanOrEqual(LEASE);
  });

  it('hands over on release, without waiting for the lease to expire', async () => {
    replicas = new Replicas();
    // A lease far longer than the test's own timeout: a takeover at all proves the release was used.
    const longLease = 10 * 60_000;
    await replicas.add('replica-a', { leaseMs: longLease });
    await replicas.add('replica-b', { leaseMs: longLease });
    const [leader, standby] = await replicas.leader();
    await new Promise((r) => setTimeout(r, RETRY));

    const lastRenewal = Date.parse((await lease()).spec!.renewTime!);
    await replicas.get(leader).stop({ release: true });
    expect(replicas.stopped.get(leader)).toBeDefined();
    await until(() => replicas.started.get(standby));
    const taken = (await lease()).spec!;
    expect(taken).toMatchObject({ holderIdentity: standby, leaseTransitions: 1 });
    expect(Date.parse(taken.acquireTime!)).toBeLessThan(lastRenewal + longLease);
    expect(replicas.started.get(standby)!).toBeGreaterThan(replicas.stopped.get(leader)!);
  });

  it('steps down at its renew deadline when it cannot renew, before the standby takes over', async () => {
    replicas = new Replicas();
    await replicas.add('replica-a');
    const leaderElector = await until(() =>
      replicas.leading.has('replica-a') ? replicas.get('replica-a') : undefined,
    );
    await replicas.add('replica-b');
    await new Promise((r) => setTimeout(r, RETRY));

    // The leader loses the apiserver (a network partition): every request fails from now on.
    const failedAt = performance.now();
    vi.spyOn(replicas.clients.get('replica-a')!, 'request').mockImplementation((method, path) =>
      Promise.reject(new ConnectionError(method, path, new Error('connect ECONNREFUSED'))),
    );
    const steppedDown = (await until(() => replicas.stopped.get('replica-a'))) - failedAt;
    expect(leaderElector.isLeader).toBe(false);
    // It kept leading while renewals failed, until its renew deadline (a lower bound: load only delays it).
    expect(steppedDown).toBeGreaterThan(RENEW_DEADLINE - 2 * RETRY);
    // The standby takes over only after the old leader's work stopped (afterEach checks overlaps).
    const takeover = await until(() => replicas.started.get('replica-b'));
    expect(takeover).toBeGreaterThan(replicas.stopped.get('replica-a')!);
  });

  it('steps down at once when it finds another holder in the lease', async () => {
    replicas = new Replicas();
    await replicas.add('replica-a');
    await until(() => (replicas.leading.has('replica-a') ? true : undefined));
    const current = await lease();
    const now = new Date().toISOString().replace(/Z$/, '000Z');
    await cluster.client.request(
      'PUT',
      `/apis/coordination.k8s.io/v1/namespaces/${cluster.namespace}/leases/${LEASE_NAME}`,
      {
        body: {
          ...current,
          spec: { ...current.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now },
        },
      },
    );
    const changedAt = performance.now();
    const steppedDown = (await until(() => replicas.stopped.get('replica-a'))) - changedAt;
    expect(steppedDown).toBeLessThan(RETRY * 3);
    expect(replicas.get('replica-a').leader).toBe('intruder');
  });

  it('rejects durations out of order', async () => {
    replicas = new Replicas();
    expect(
      () =>
        new LeaderElector({
          client: cluster.client,
          name: LEASE_NAME,
          namespace: cluster.namespace,
          identity: 'x',
          leaseDurationMs: 1000,
          renewDeadlineMs: 2000,
          onStartedLeading: () => undefined,
        }),
    ).toThrow(/leaseDuration > renewDeadline > retryPeriod/);
  });
});
