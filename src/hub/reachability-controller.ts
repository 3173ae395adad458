import type { KubeClient } from '../cluster/client.js';
import { KindCache } from '../cluster/object-cache.js';
import { watchKind } from '../cluster/watch.js';
import { errorMessage } from '../core/errors.js';
import { HUB_PATHS, LABELS, MEMBER_LEASE, memberNamespace, memberOfNamespace } from './hub-names.js';
import { HUB_RESOURCES, type HubLog } from './hub-resources.js';
import { DEFAULT_LEASE_SECONDS, readFleetMember, type FleetMemberObject } from './member-schema.js';
import { judgeReachability, reachabilityPatch, watchingSince, type Reachability } from './reachability.js';

export interface ReachabilityControllerOptions {
  /** How often every member is judged. @default 1000 */
  readonly tickMs?: number;
  readonly log: HubLog;
  /** The controller's clock (milliseconds). */
  readonly now?: () => number;
}

/**
 * Judges every member's heartbeat by the hub's own clock: watches the members' Leases (label
 * `hub.groundwork.io/member`) and notes when each one changed, keeps the FleetMembers in a
 * watch-fed cache, and every `tickMs` records the verdict (`judgeReachability`) on each FleetMember
 * whose reachability label says otherwise, with a merge patch of its metadata. A renewal alone
 * costs no write. While the Lease watch is down nothing is judged, and when it comes back every
 * member gets a lease duration again. Only a Lease named `member-heartbeat` in a member's own
 * namespace counts for that member; its labels and contents are not trusted.
 */
export class ReachabilityController {
  private readonly abort = new AbortController();
  private readonly seen = new Map<string, number>();
  private watchingSince: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly written = new Map<string, Reachability>();
  private ticking = false;
  private readonly now: () => number;
  readonly members: KindCache;
  /** Patches written (for tests and the bench). */
  patches = 0;

  constructor(
    private readonly client: KubeClient,
    private readonly opts: ReachabilityControllerOptions,
    members?: KindCache,
  ) {
    this.now = opts.now ?? Date.now;
    this.members =
      members ??
      new KindCache(client, HUB_RESOURCES.fleetMembers, {
        onError: (err) => opts.log.warn({ err: errorMessage(err) }, 'FleetMember watch'),
      });
  }

  async start(): Promise<void> {
    await this.members.start();
    void watchKind(this.client, HUB_RESOURCES.leases, {
      labelSelector: LABELS.member,
      signal: this.abort.signal,
      onStreaming: (up) => {
        // A watch that comes back after being down may have missed renewals: every member gets a
        // lease duration. A stream the server closed and that resumed missed nothing.
        this.watchingSince = watchingSince(this.watchingSince, up, this.now());
      },
      onEvent: (type, obj) => {
        if (type !== 'MODIFIED' || obj.metadata.name !== MEMBER_LEASE) return;
        const member = memberOfNamespace(obj.metadata.namespace ?? '');
        if (member) this.seen.set(member, this.now());
      },
      onError: (err) => this.opts.log.warn({ err: errorMessage(err) }, 'Lease watch'),
    });
    this.timer = setInterval(() => void this.tick(), this.opts.tickMs ?? 1000);
    this.timer.unref?.();
  }

  stop(): void {
    this.abort.abort();
    if (this.timer) clearInterval(this.timer);
    this.members.stop();
  }

  /** Judges every member once (what each tick does); skipped while a watch is down. */
  async tick(): Promise<void> {
    if (this.ticking || this.watchingSince === undefined || !this.members.healthy) return;
    this.ticking = true;
    try {
      const now = this.now();
      for (const obj of this.members.objects()) {
        let member: FleetMemberObject;
        try {
          member = readFleetMember(obj);
        } catch {
          continue;
        }
        if (member.namespace !== memberNamespace(member.name)) continue;
        const seen = {
          ...(this.seen.has(member.name) ? { lastSeenMs: this.seen.get(member.name)! } : {}),
          watchingSinceMs: this.watchingSince,
          leaseMs: (member.spec.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS) * 1000,
        };
        const verdict = judgeReachability(seen, now);
        if (!verdict) continue;
        const patch = reachabilityPatch(member.labels, verdict, seen, now);
        if (!patch) {
          this.written.delete(member.name); // the cache shows what was written
          continue;
        }
        if (this.written.get(member.name) === verdict) continue; // written; the cache lags
        try {
          await this.client.request('PATCH', HUB_PATHS.fleetMember(member.name), {
            body: patch,
            contentType: 'application/merge-patch+json',
          });
          this.written.set(member.name, verdict);
          this.patches++;
          this.opts.log.info({ member: member.name, reachability: verdict }, 'reachability');
        } catch (err) {
          this.opts.log.warn({ err: errorMessage(err), member: member.name }, 'reachability not recorded');
        }
      }
    } finally {
      this.ticking = false;
    }
  }
}
