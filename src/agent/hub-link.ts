import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { machineConfigPoolSchema, type MachineConfigPool } from '../health/machine-config-pool-schema.js';
import type { PlatformSyncSpec } from '../cluster/sync-status-store.js';
import { errorMessage } from '../core/errors.js';
import { HubMember } from '../hub/hub-member.js';
import type { HubLog } from '../hub/hub-resources.js';
import type { MemberReportInput } from '../hub/member-report.js';
import type { ReportPacing } from '../hub/report-timing.js';
import type { SyncStatusJson } from '../report/sync-status.js';
import type { ReleaseHold } from './released-fetch.js';

export interface HubLinkOptions {
  /** The agent's own cluster: its credentials Secret, and a `secret/<name>` bootstrap. */
  readonly local: KubeClient;
  readonly namespace: string;
  /** `--hub`: a bootstrap kubeconfig file or `secret/<name>` (checked by `hubSourceOf` at start). */
  readonly hub: string;
  readonly overlay: string;
  /** `--sync-name`: when set, the PlatformSync's name does not tell the platform's. */
  readonly syncName?: string;
  readonly log: HubLog;
  /** Tells the cluster the hub could not be reached (a Warning Event on the PlatformSync); never throws. */
  readonly onProblem: (syncName: string, reason: 'HubUnreachable', note: string) => void;
  /** The hub's release for this member changed (or was first read): the agent runs a cycle. */
  readonly onRelease?: () => void;
  readonly agentVersion?: string;
  readonly pacing?: ReportPacing;
  /** Connection retries: the first after `firstMs`, doubling up to `maxMs`. @default 5 s, 5 min */
  readonly retry?: { readonly firstMs: number; readonly maxMs: number };
}

/** What one status write tells the hub. */
interface Written {
  readonly name: string;
  readonly spec: PlatformSyncSpec;
  readonly status: SyncStatusJson;
}

/** A URL without user info (an https URL's credentials never reach the hub). */
function withoutUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url; // user@host:path: the user is a login name, not a secret
  }
}

const POOLS = '/apis/machineconfiguration.openshift.io/v1/machineconfigpools';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The agent's link to the hub (`--hub`): connects a `HubMember` in the background (registering
 * first when needed; retried with backoff while the hub cannot be reached or refuses), and turns
 * every PlatformSync status the agent writes (`written`) into the member's report. Nothing here
 * waits on the hub or throws into the agent: a hub that cannot be reached costs a warning in the
 * log and a Warning Event `HubUnreachable` on the PlatformSync, and the agent's cycles go on.
 */
export class HubLink {
  private member: HubMember | undefined;
  private last: Written | undefined;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private connecting: Promise<void> | undefined;
  /** Problems seen before the PlatformSync had a name: recorded with the first status write. */
  private unrecorded: string | undefined;
  private readonly abort = new AbortController();
  /** Sends started: only the latest one reports (pools are read between). */
  private sends = 0;
  /** The last fetch's hold (`held`): the tip waiting for a release goes into the report. */
  private hold: ReleaseHold = {};
  /** The release last seen, as JSON: `onRelease` fires when it changes. */
  private seenRelease: string | undefined;

  private constructor(private readonly opts: HubLinkOptions) {}

  /** Starts connecting (returns at once). */
  static start(opts: HubLinkOptions): HubLink {
    const link = new HubLink(opts);
    link.connect(opts.retry?.firstMs ?? 5_000);
    return link;
  }

  /** The member's name once connected. */
  get memberName(): string | undefined {
    return this.member?.member;
  }

  /** After each PlatformSync status write (or a write that found it unchanged): the report. */
  written(name: string, spec: PlatformSyncSpec, status: SyncStatusJson): void {
    this.last = { name, spec, status };
    if (this.unrecorded) {
      this.opts.onProblem(name, 'HubUnreachable', this.unrecorded);
      this.unrecorded = undefined;
    }
    this.send();
  }

  /**
   * The FleetMember's `spec.release` as last read, unparsed (`HubMember.release`); undefined before
   * the hub was first reached. The hub's last word holds while it cannot be reached.
   */
  release(): unknown {
    return this.member?.release();
  }

  /** After each fetch under the release gate: the release applied and the tip that waits. */
  held(hold: ReleaseHold): void {
    const same = (a: ReleaseHold, b: ReleaseHold) =>
      a.waiting === b.waiting && a.refused === b.refused && a.release?.revision === b.release?.revision;
    if (same(hold, this.hold)) return;
    this.hold = hold;
    if (hold.waiting)
      this.opts.log.info(
        { waiting: hold.waiting, release: hold.release?.revision ?? null },
        "a newer revision waits for the hub's release",
      );
    this.send();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort(); // a registration waiting for the hub's answer gives up at once
    if (this.timer) clearTimeout(this.timer);
    await this.connecting;
    await this.member?.stop().catch(() => undefined);
  }

  /**
   * The cluster's MachineConfigPools for the report's `openshift.pools`; undefined where the kind
   * is not served or the agent may not list it (its RBAC has the read only with a platform that
   * manages ClusterVersion or MachineConfigs). A pool that does not parse is left out.
   */
  private async pools(): Promise<MachineConfigPool[] | undefined> {
    try {
      const list = await this.opts.local.request('GET', POOLS, {
        schema: z.object({ items: z.array(z.unknown()).max(1000) }),
      });
      return list.items.flatMap((i) => {
        const p = machineConfigPoolSchema.safeParse(i);
        return p.success ? [p.data] : [];
      });
    } catch {
      return undefined;
    }
  }

  private send(): void {
    void this.sendNow(++this.sends);
  }

  private async sendNow(turn: number): Promise<void> {
    const w = this.last;
    if (!w || !this.member) return;
    const pools = await this.pools();
    if (turn !== this.sends || !this.member) return; // a later status is on its way
    const { repository } = w.spec;
    const ref = repository.ref.branch ?? repository.ref.tag ?? repository.ref.commit;
    const platform =
      !this.opts.syncName && w.name.endsWith(`-${this.opts.overlay}`)
        ? w.name.slice(0, -this.opts.overlay.length - 1)
        : undefined;
    const input: MemberReportInput = {
      status: w.status,
      ...(this.hold.refused || this.hold.waiting
        ? { attempted: this.hold.refused ?? this.hold.waiting }
        : {}),
      overlay: this.opts.overlay,
      ...(platform && DNS_LABEL.test(platform) ? { platform } : {}),
      source: {
        url: withoutUserinfo(repository.url),
        ...(ref ? { ref } : {}),
        ...(repository.path ? { path: repository.path } : {}),
      },
    };
    this.member.report(pools && pools.length > 0 ? { ...input, pools } : input);
  }

  /** Tells the agent when the hub's release for this member changed (`onRelease`). */
  private releaseSeen(): void {
    const release = this.member?.release();
    const seen = release === undefined ? undefined : JSON.stringify(release);
    if (seen === this.seenRelease) return;
    this.seenRelease = seen;
    this.opts.onRelease?.();
  }

  private problem(note: string): void {
    if (this.last) this.opts.onProblem(this.last.name, 'HubUnreachable', note);
    else this.unrecorded = note;
  }

  private connect(nextMs: number): void {
    if (this.stopped) return;
    this.connecting = HubMember.start({
      local: this.opts.local,
      namespace: this.opts.namespace,
      hub: this.opts.hub,
      // The member's own warnings (heartbeat, report, token renewal) reach the cluster too.
      log: {
        info: (o, m) => this.opts.log.info(o, m),
        warn: (o, m) => {
          this.opts.log.warn(o, m);
          const err = (o as { err?: unknown }).err;
          this.problem(`${m ?? 'hub'}${err ? `: ${String(err)}` : ''}`);
        },
      },
      ...(this.opts.agentVersion ? { agentVersion: this.opts.agentVersion } : {}),
      ...(this.opts.pacing ? { pacing: this.opts.pacing } : {}),
      signal: this.abort.signal,
    }).then(
      async (member) => {
        if (this.stopped) return member.stop();
        this.member = member;
        member.onSpec(() => this.releaseSeen());
        this.releaseSeen();
        this.send();
      },
      (err: unknown) => {
        if (this.stopped) return;
        const code = (err as { code?: string }).code;
        this.opts.log.warn(
          { err: errorMessage(err), ...(code ? { code } : {}), retryInMs: nextMs },
          'cannot connect to the hub; the agent goes on without it',
        );
        this.problem(`cannot connect to the hub: ${errorMessage(err)}`);
        this.timer = setTimeout(
          () => this.connect(Math.min(nextMs * 2, this.opts.retry?.maxMs ?? 300_000)),
          nextMs,
        );
      },
    );
  }
}
