import { open } from 'node:fs/promises';
import { z } from 'zod';
import { KubeClient } from '../cluster/client.js';
import { LeaseStore } from '../cluster/lease-store.js';
import { watchKind } from '../cluster/watch.js';
import { GroundworkError, errorMessage } from '../core/errors.js';
import {
  BOOTSTRAP_MAX_BYTES,
  memberKubeconfig,
  parseBootstrapKubeconfig,
  type HubBootstrap,
} from './bootstrap-kubeconfig.js';
import { HeartbeatLease } from './heartbeat-lease.js';
import { HUB_PATHS, MEMBER_LEASE, memberNamespace } from './hub-names.js';
import { hubSourceOf } from './hub-source.js';
import { HUB_RESOURCES, type HubLog } from './hub-resources.js';
import { MemberCredentialsStore, type MemberState } from './member-credentials-store.js';
import { registerMember } from './member-registration.js';
import { memberReport, type MemberReportInput } from './member-report.js';
import {
  DEFAULT_LEASE_SECONDS,
  readFleetMember,
  type FleetMemberObject,
  type MemberSpec,
} from './member-schema.js';
import { requestMemberToken } from './member-setup.js';
import { DEFAULT_PACING, type ReportPacing } from './report-timing.js';
import { rfc3339 } from './schema-parts.js';
import { ReportWriter } from './report-writer.js';

export interface HubMemberOptions {
  /** The agent's own cluster: where its credentials Secret (and a `secret/<name>` bootstrap) live. */
  readonly local: KubeClient;
  /** The agent's namespace on its own cluster. */
  readonly namespace: string;
  /** `--hub`: a bootstrap kubeconfig file, or `secret/<name>` (key `kubeconfig`) in `namespace`. */
  readonly hub: string;
  readonly log: HubLog;
  readonly agentVersion?: string;
  readonly pacing?: ReportPacing;
  /** Life asked for renewed member tokens. @default 24 h */
  readonly tokenSeconds?: number;
  /** The member's clock (milliseconds): when its token is due for renewal. @default Date.now */
  readonly now?: () => number;
  /** Aborts a registration waiting for the hub's answer (`start` then fails). */
  readonly signal?: AbortSignal;
}

type Registered = Extract<MemberState, { phase: 'registered' }>;

/** Just enough of a FleetMember to find its `spec.release` before the schema reads it. */
const rawSpecSchema = z.looseObject({ spec: z.looseObject({ release: z.unknown() }).optional() });

/** At most `BOOTSTRAP_MAX_BYTES + 1` bytes of a regular file (never a device, FIFO or directory). */
async function readBounded(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    const buf = Buffer.alloc(BOOTSTRAP_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > BOOTSTRAP_MAX_BYTES) throw new Error(`larger than ${BOOTSTRAP_MAX_BYTES} bytes`);
    }
    return buf.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Reads `--hub` (`hubSourceOf`): the file (a regular file, at most 256 KiB) or the key
 * `kubeconfig` of the Secret in `namespace`; parsed strictly (`parseBootstrapKubeconfig`).
 * `HubBootstrapInvalid` for anything else; nothing in it is run or read further.
 */
export async function readHubBootstrap(
  opts: Pick<HubMemberOptions, 'local' | 'namespace' | 'hub'>,
): Promise<HubBootstrap> {
  const source = hubSourceOf(opts.hub);
  if (source.kind === 'secret') {
    const s = await opts.local.request('GET', `/api/v1/namespaces/${opts.namespace}/secrets/${source.name}`, {
      schema: z.looseObject({ data: z.record(z.string(), z.string()).nullish() }),
    });
    const text = s.data?.kubeconfig ? Buffer.from(s.data.kubeconfig, 'base64').toString('utf8') : '';
    return parseBootstrapKubeconfig(text, `${opts.hub} in ${opts.namespace}`);
  }
  let text: string;
  try {
    text = await readBounded(source.path);
  } catch (err) {
    throw new GroundworkError({
      code: 'HubBootstrapInvalid',
      subject: opts.hub,
      message: `cannot be read: ${errorMessage(err)}`,
      fix: 'pass the bootstrap kubeconfig `groundwork hub token create` printed, or secret/<name>',
    });
  }
  return parseBootstrapKubeconfig(text, opts.hub);
}

/**
 * The agent's side of the hub (`--hub`): connects as the member (registering first when it has no
 * valid credentials), renews its heartbeat Lease every quarter of its lease duration, renews its
 * token when two thirds of its life have passed, follows its FleetMember's spec (the hub's
 * releases: `spec()`, `onSpec`), and writes its report when it changes (`report`, paced by
 * `ReportWriter`). A hub that cannot be reached costs warnings, never the agent's own work.
 */
export class HubMember {
  private client!: KubeClient;
  private state!: Registered;
  private current: FleetMemberObject | undefined;
  /** `spec.release` as the hub wrote it, unparsed (the release gate reads it: `release()`). */
  private rawRelease: unknown;
  private readonly listeners: ((spec: MemberSpec, generation: number) => void)[] = [];
  private readonly abort = new AbortController();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private specWatch: AbortController | undefined;
  private writer!: ReportWriter;
  private lastInput: MemberReportInput | undefined;
  heartbeats = 0;
  /** The heartbeat Lease, held between renewals (one write each). */
  private lease: HeartbeatLease | undefined;

  private constructor(private readonly opts: HubMemberOptions) {}

  /** Connects (registering when needed) and starts the heartbeat, token renewal and spec watch. */
  static async start(opts: HubMemberOptions): Promise<HubMember> {
    const m = new HubMember(opts);
    try {
      await m.connect();
    } catch (err) {
      // Nothing left running: the caller may try again later.
      m.abort.abort();
      for (const t of m.timers) clearTimeout(t);
      (m.client as KubeClient | undefined)?.close();
      throw err;
    }
    return m;
  }

  get member(): string {
    return this.state.member;
  }

  /** The FleetMember's spec as last read (the hub's release for this member). */
  spec(): MemberSpec {
    return this.current?.spec ?? {};
  }

  /**
   * The FleetMember's `spec.release` as last read, unparsed: the hub is another trust domain, and a
   * release that does not read must be refused by the agent, not mistaken for none. Undefined when
   * the spec has no release. Kept while the hub cannot be reached.
   */
  release(): unknown {
    return this.rawRelease;
  }

  /** Calls `listener` with every new spec generation. */
  onSpec(listener: (spec: MemberSpec, generation: number) => void): void {
    this.listeners.push(listener);
  }

  /** Offers the agent's state: the report is built (`memberReport`) and written when it changed. */
  report(input: MemberReportInput): void {
    this.lastInput = input;
    this.writer.offer(
      memberReport({ ...input, observedGeneration: this.current?.generation ?? 0, ...this.version() }),
    );
  }

  /** Writes the pending report now. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
    await this.writer.stop();
    this.client.close();
  }

  private version() {
    return this.opts.agentVersion ? { agentVersion: this.opts.agentVersion } : {};
  }

  private async connect(): Promise<void> {
    const store = new MemberCredentialsStore(this.opts.local, this.opts.namespace);
    const state = await store.read();
    const fresh = state?.phase === 'registered' && Date.parse(state.expiresAt) - this.now() > 5 * 60_000;
    this.state = fresh
      ? state
      : await registerMember({
          bootstrap: await readHubBootstrap(this.opts),
          store,
          state,
          ...(this.opts.agentVersion ? { agentVersion: this.opts.agentVersion } : {}),
          ...(this.opts.signal ? { signal: this.opts.signal } : {}),
        });
    this.client = await this.clientOf(this.state);
    const member = this.take(
      await this.client.request('GET', HUB_PATHS.fleetMember(this.state.member), { schema: z.unknown() }),
    );
    this.writer = new ReportWriter(() => this.client, this.state.member, member.report?.sequence ?? 0, {
      pacing: this.opts.pacing ?? DEFAULT_PACING,
      log: this.opts.log,
    });
    this.opts.log.info({ member: this.state.member }, 'connected to the hub');
    await this.heartbeat();
    this.every(
      () => this.heartbeat(),
      () => (this.leaseSeconds() * 1000) / 4,
    );
    this.every(
      () => this.renewTokenIfDue().then(() => this.registerAgainIfExpired().then(() => undefined)),
      () => 60_000,
    );
    this.watchSpec();
  }

  /** Follows the FleetMember (its own namespace, the only one there) with the current client. */
  private watchSpec(): void {
    this.specWatch?.abort();
    const watch = new AbortController();
    this.specWatch = watch;
    this.abort.signal.addEventListener('abort', () => watch.abort(), { once: true });
    void watchKind(this.client, HUB_RESOURCES.fleetMembers, {
      namespace: memberNamespace(this.state.member),
      signal: watch.signal,
      onEvent: (type, obj) => {
        if (type === 'DELETED' || obj.metadata.name !== this.state.member) return;
        const before = this.current?.generation;
        const next = this.take(obj);
        if (next.generation === before) return;
        for (const l of this.listeners) l(next.spec, next.generation);
        if (this.lastInput) this.report(this.lastInput);
      },
      onError: (err) => this.opts.log.warn({ err: errorMessage(err) }, 'FleetMember watch'),
    });
  }

  /**
   * Takes a FleetMember as read: `current`, and its raw `spec.release`. A release that does not
   * read is kept raw (for the gate to refuse) and left out of `current`, so the rest still reads.
   */
  private take(obj: unknown): FleetMemberObject {
    const raw = rawSpecSchema.safeParse(obj);
    const release = raw.success ? raw.data.spec?.release : undefined;
    let next: FleetMemberObject;
    try {
      next = readFleetMember(obj);
    } catch (err) {
      if (!raw.success || !raw.data.spec || release === undefined) throw err;
      next = readFleetMember({ ...raw.data, spec: { ...raw.data.spec, release: undefined } });
    }
    this.current = next;
    this.rawRelease = release;
    return next;
  }

  private clientOf(state: Registered): Promise<KubeClient> {
    return KubeClient.fromKubeconfigText(
      memberKubeconfig(
        { server: state.server, ...(state.caData ? { caData: state.caData } : {}) },
        state.member,
        state.token,
      ),
      { where: 'the hub credentials', userAgent: 'groundwork-hub-member' },
    );
  }

  private leaseSeconds(): number {
    return this.current?.spec.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS;
  }

  /** Runs `fn` again and again, each time after `delayMs()` (read anew: the lease may change). */
  private every(fn: () => Promise<void>, delayMs: () => number): void {
    const run = () => {
      if (this.abort.signal.aborted) return;
      const t = setTimeout(() => {
        this.timers.delete(t);
        void fn().finally(run);
      }, delayMs());
      this.timers.add(t);
    };
    run();
  }

  private async heartbeat(): Promise<void> {
    this.lease ??= new HeartbeatLease(this.state.member);
    try {
      await this.lease.renew(
        new LeaseStore(this.client, memberNamespace(this.state.member), MEMBER_LEASE),
        this.leaseSeconds(),
      );
      this.heartbeats++;
    } catch (err) {
      this.opts.log.warn({ err: errorMessage(err) }, 'heartbeat to the hub failed');
    }
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /**
   * When the member's token has expired (renewal failed for the last third of its life, or the
   * agent slept through it), registers again with the `--hub` bootstrap kubeconfig as read now (a
   * new one from `groundwork hub token create --member <same name>`), then goes on with the new
   * credentials. Checked every minute; true when it registered. A failure (the bootstrap spent or
   * expired: `HubRegistrationRefused`, `HubCredentialsExpired`) is a warning, tried again a minute
   * later, so replacing the file or Secret is enough.
   */
  async registerAgainIfExpired(): Promise<boolean> {
    if (this.now() < Date.parse(this.state.expiresAt)) return false;
    try {
      const store = new MemberCredentialsStore(this.opts.local, this.opts.namespace);
      const next = await registerMember({
        bootstrap: await readHubBootstrap(this.opts),
        store,
        state: await store.read(),
        ...(this.opts.agentVersion ? { agentVersion: this.opts.agentVersion } : {}),
        ...(this.opts.signal ? { signal: this.opts.signal } : {}),
      });
      const old = this.client;
      this.client = await this.clientOf(next);
      this.state = next;
      this.watchSpec();
      old.close();
      this.opts.log.info({ member: next.member }, 'registered again: the member token had expired');
      return true;
    } catch (err) {
      this.opts.log.warn(
        { err: errorMessage(err) },
        'the hub token expired and registering again failed; give the agent a new bootstrap kubeconfig (groundwork hub token create --member <name>)',
      );
      return false;
    }
  }

  /**
   * Renews the member's hub token through TokenRequest, with its own rights, once two thirds of its
   * life have passed (checked every minute): saved in the credentials Secret first, then used for
   * every later request. True when it renewed; a failure is a warning, tried again a minute later.
   */
  async renewTokenIfDue(): Promise<boolean> {
    const issued = Date.parse(this.state.issuedAt);
    const expires = Date.parse(this.state.expiresAt);
    if (this.now() < issued + ((expires - issued) * 2) / 3) return false;
    try {
      const { token, expiresAt } = await requestMemberToken(
        this.client,
        this.state.member,
        this.opts.tokenSeconds ?? 86_400,
      );
      const next: Registered = { ...this.state, token, expiresAt, issuedAt: rfc3339(this.now()) };
      await new MemberCredentialsStore(this.opts.local, this.opts.namespace).write(next);
      const old = this.client;
      this.client = await this.clientOf(next);
      this.state = next;
      this.watchSpec();
      old.close();
      this.opts.log.info({ expiresAt }, 'hub token renewed');
      return true;
    } catch (err) {
      this.opts.log.warn({ err: errorMessage(err) }, 'hub token renewal failed; tried again in a minute');
      return false;
    }
  }
}
