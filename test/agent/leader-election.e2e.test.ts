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

/** One request a replica's elector sent, in the order they were sent. */
interface SentRequest {
  identity: string;
  method: string;
  /** Whether the replica was leading when it sent it. */
  leading: boolean;
  /** Set when the answer came: false for an error (a refused connection, a Conflict). */
  ok?: boolean;
}

/**
 * Two (or more) electors on their own clients, with a log of who led when and of every request
 * each sent: the positive signals the tests wait on, instead of sleeping and looking.
 */
class Replicas {
  readonly electors = new Map<string, LeaderElector>();
  readonly clients = new Map<string, KubeClient>();
  readonly started = new Map<string, number>();
  readonly stopped = new Map<string, number>();
  /** When each replica stopped leading, by the wall clock (to compare with the lease's times). */
  readonly stoppedAt = new Map<string, number>();
  /** How long the request log was when each replica stopped leading. */
  readonly stoppedAfter = new Map<string, number>();
  readonly leading = new Set<string>();
  readonly requests: SentRequest[] = [];
  /** The Lease as each replica's last successful write returned it. */
  readonly written = new Map<string, Lease>();
  /** Replicas cut off from the apiserver (a network partition): their requests fail, unsent. */
  readonly partitioned = new Set<string>();
  /** Times two replicas ran leader work at once (must stay 0). */
  overlaps = 0;
  private readonly runs: Promise<void>[] = [];

  async add(identity: string, opts: { leaseMs?: number } = {}): Promise<LeaderElector> {
    const client = await KubeClient.load({
      kubeconfig: cluster.kubeconfig,
      userAgent: `groundwork-e2e-${identity}`,
    });
    const send = client.request.bind(client) as (m: string, p: string, o?: object) => Promise<unknown>;
    vi.spyOn(client, 'request').mockImplementation((async (method: string, path: string, o?: object) => {
      const sent: SentRequest = { identity, method, leading: this.leading.has(identity) };
      this.requests.push(sent);
      try {
        if (this.partitioned.has(identity))
          throw new ConnectionError(method, path, new Error('connect ECONNREFUSED'));
        const body = await send(method, path, o);
        if (method !== 'GET') this.written.set(identity, body as Lease);
        sent.ok = true;
        return body;
      } catch (err) {
        sent.ok = false;
        throw err;
      }
    }) as KubeClient['request']);
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
      onStoppedLeading: () => {
        this.stopped.set(identity, performance.now());
        this.stoppedAt.set(identity, Date.now());
        this.stoppedAfter.set(identity, this.requests.length);
      },
    });
    this.electors.set(identity, elector);
    this.clients.set(identity, client);
    this.runs.push(elector.run());
    return elector;
  }

  /** Requests `identity` sent between positions `from` and `to` of the log. */
  sentBy(identity: string, from = 0, to = this.requests.length): SentRequest[] {
    return this.requests.slice(from, to).filter((r) => r.identity === identity);
  }

  /** Resolves once `identity` has seen `holder` in the lease. */
  sees(identity: string, holder: string): Promise<true> {
    return until(() => (this.get(identity).leader === holder ? true : undefined));
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

/** Writes `holder` into the lease as another replica would (again after a Conflict with a renewal). */
async function intrude(holder: string): Promise<void> {
  for (;;) {
    const current = await lease();
    const now = new Date().toISOString().replace(/Z$/, '000Z');
    try {
      await cluster.client.request(
        'PUT',
        `/apis/coordination.k8s.io/v1/namespaces/${cluster.namespace}/leases/${LEASE_NAME}`,
        {
          body: {
            ...current,
            spec: { ...current.spec, holderIdentity: holder, renewTime: now, acquireTime: now },
          },
          noRetry: true,
        },
      );
      return;
    } catch (err) {
      if ((err as { reason?: string }).reason !== 'Conflict') throw err;
    }
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
    // The standby campaigns three more times (each a read of the lease, refused: it is held), and
    // there is still exactly one leader, which the standby knows.
    const from = replicas.requests.length;
    await until(() => (replicas.sentBy(standby, from).filter((r) => r.ok).length >= 3 ? true : undefined));
    expect([...replicas.leading]).toEqual([leader]);
    expect(replicas.sentBy(standby, from).every((r) => !r.leading)).toBe(true);
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
    // The standby is campaigning: it has seen the lease held (for ten minutes).
    await replicas.sees(standby, leader);

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
    await replicas.sees('replica-b', 'replica-a');

    // The leader loses the apiserver (a network partition): every request fails from now on.
    replicas.partitioned.add('replica-a');
    await until(() => replicas.stopped.get('replica-a'));
    expect(leaderElector.isLeader).toBe(false);
    // Nothing it sent after the partition got through, so its last renewal is the last lease it wrote.
    const lastRenewal = Date.parse(replicas.written.get('replica-a')!.spec!.renewTime!);
    // It kept leading for its whole renew deadline after that renewal, read from its own record
    // rather than a stopwatch (a lower bound: load only delays it; renewTime has ms precision).
    expect(replicas.stoppedAt.get('replica-a')! - lastRenewal).toBeGreaterThanOrEqual(RENEW_DEADLINE - 1);
    // The standby takes over only after the old leader's work stopped (afterEach checks overlaps).
    const takeover = await until(() => replicas.started.get('replica-b'));
    expect(takeover).toBeGreaterThan(replicas.stopped.get('replica-a')!);
  });

  it('steps down at once when it finds another holder in the lease', async () => {
    replicas = new Replicas();
    await replicas.add('replica-a');
    await until(() => (replicas.leading.has('replica-a') ? true : undefined));
    await intrude('intruder');
    const from = replicas.requests.length;
    const to = await until(() => replicas.stoppedAfter.get('replica-a'));
    // At once: at its next attempt, a renewal the server refuses (the lease changed) and one read
    // that finds the intruder; not after more attempts, nor at its renew deadline.
    const sent = replicas.sentBy('replica-a', from, to).map((r) => `${r.method} ${r.ok}`);
    expect(sent.at(-1)).toBe('GET true');
    expect(sent.length).toBeLessThanOrEqual(2);
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
