// The simulated members of `bench hub`: each registers through the product's real path (a one-time
// token from issueBootstrap, registerMember answered by the hub controller), then renews its
// heartbeat Lease as HubMember does (HeartbeatLease: one update of the Lease it holds, every quarter of its lease,
// jittered) and writes its report through the product's ReportWriter (debounced, paced) whenever
// its simulated state changes. All members share one bounded pool of connections (hub-pool.ts).
import type { KubeClient } from '../src/cluster/client.js';
import { LeaseStore } from '../src/cluster/lease-store.js';
import { HeartbeatLease } from '../src/hub/heartbeat-lease.js';
import { parseBootstrapKubeconfig } from '../src/hub/bootstrap-kubeconfig.js';
import { HUB_NAMESPACE, MEMBER_LEASE, memberNamespace } from '../src/hub/hub-names.js';
import { issueBootstrap } from '../src/hub/hub-token.js';
import { MemberCredentialsStore, type MemberState } from '../src/hub/member-credentials-store.js';
import { registerMember } from '../src/hub/member-registration.js';
import { DEFAULT_PACING } from '../src/hub/report-timing.js';
import { ReportWriter } from '../src/hub/report-writer.js';
import {
  appliedState,
  INITIAL_STATE,
  jittered,
  nextChangeMs,
  nextState,
  reportBody,
  rng,
  type MemberProfile,
} from './hub-model.js';
import { memberClient, type HubConnections, type RequestObserver } from './hub-pool.js';

const silentLog = { info: () => undefined, warn: () => undefined };

/** The agent keeps its credentials in a Secret of its own cluster; a simulated member, in memory. */
class MemoryCredentialsStore extends MemberCredentialsStore {
  private state: MemberState | undefined;
  constructor() {
    super(undefined as unknown as KubeClient, 'bench');
  }
  override read(): Promise<MemberState | undefined> {
    return Promise.resolve(this.state);
  }
  override write(state: MemberState): Promise<void> {
    this.state = state;
    return Promise.resolve();
  }
}

/**
 * Registers `profile` as a member, as `hub token create` and `agent --hub` do: a bootstrap
 * kubeconfig issued with `admin`, then `registerMember` (which waits for the controller's answer).
 * Returns the member's token and how long the registration took (token issue excluded).
 */
export async function registerSimulated(
  admin: KubeClient,
  profile: MemberProfile,
): Promise<{ token: string; ms: number }> {
  const issued = await issueBootstrap(admin, {
    namespace: HUB_NAMESPACE,
    member: profile.name,
    labels: profile.labels,
    environment: profile.environment,
    ttlSeconds: 3600,
  });
  const started = Date.now();
  const state = await registerMember({
    bootstrap: parseBootstrapKubeconfig(issued.kubeconfig, profile.name),
    store: new MemoryCredentialsStore(),
    state: undefined,
    timeoutMs: 900_000,
  });
  return { token: state.token, ms: Date.now() - started };
}

/** One registered member playing its agent: heartbeats, state changes, reports. */
export class SimulatedMember {
  private readonly client: KubeClient;
  private readonly writer: ReportWriter;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly random: () => number;
  private state = INITIAL_STATE;
  private stopped = false;
  heartbeats = 0;
  heartbeatFailures = 0;
  private readonly lease: HeartbeatLease;

  constructor(
    readonly profile: MemberProfile,
    token: string,
    connections: HubConnections,
    private readonly opts: {
      readonly leaseSeconds: number;
      /** Mean time between state changes (exponential). */
      readonly changeEveryMs: number;
      readonly observe?: RequestObserver;
    },
  ) {
    this.client = memberClient(connections, token, opts.observe);
    this.writer = new ReportWriter(() => this.client, profile.name, 0, {
      pacing: DEFAULT_PACING,
      log: silentLog,
    });
    this.random = rng(profile.name.length * 7919 + Number(profile.name.slice(2)));
    this.lease = new HeartbeatLease(profile.name);
  }

  get reportWrites(): number {
    return this.writer.writes;
  }

  /** Heartbeats from a random phase of its period, the first report, then changes at random. */
  start(): void {
    const period = (this.opts.leaseSeconds * 1000) / 4;
    this.every(
      () => this.heartbeat(),
      () => jittered(period, this.random),
      this.random() * period,
    );
    this.writer.offer(reportBody(this.profile, this.state));
    this.every(
      async () => {
        this.state = nextState(this.state, this.random, Math.floor(Date.now() / 1000));
        this.writer.offer(reportBody(this.profile, this.state));
      },
      () => nextChangeMs(this.state, this.random, this.opts.changeEveryMs),
    );
  }

  /**
   * The hub released `revision` to this member: after a simulated fetch, apply and health wait
   * (`applyMs`, jittered ±50 %) it reports the revision applied (Ready, unless it is `not-ready`).
   * A stopped (silent) member does nothing.
   */
  release(revision: string, applyMs: number): void {
    if (this.stopped || this.state.revision === revision) return;
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        if (this.stopped) return;
        this.state = appliedState(this.state, revision, Math.floor(Date.now() / 1000));
        this.writer.offer(reportBody(this.profile, this.state));
      },
      jittered(applyMs, this.random, 0.5),
    );
    this.timers.add(t);
  }

  /** Stops everything at once (a `silent` member: its cluster went away). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    await this.writer.stop();
  }

  private every(fn: () => Promise<void>, delayMs: () => number, firstMs?: number): void {
    const run = (ms: number) => {
      if (this.stopped) return;
      const t = setTimeout(() => {
        this.timers.delete(t);
        void fn().finally(() => run(delayMs()));
      }, ms);
      this.timers.add(t);
    };
    run(firstMs ?? delayMs());
  }

  /** As HubMember.heartbeat: write the Lease last written back with a new renewTime (HeartbeatLease). */
  private async heartbeat(): Promise<void> {
    try {
      await this.lease.renew(
        new LeaseStore(this.client, memberNamespace(this.profile.name), MEMBER_LEASE),
        this.opts.leaseSeconds,
      );
      this.heartbeats++;
    } catch {
      this.heartbeatFailures++;
    }
  }
}

/** Runs `fn` over `items` with at most `limit` at a time; resolves when all are done. */
export async function pooled<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
