import type { KubeClient } from '../cluster/client.js';
import { KindCache } from '../cluster/object-cache.js';
import { errorMessage } from '../core/errors.js';
import { HUB_API_VERSION, HUB_PATHS } from './hub-names.js';
import { HUB_RESOURCES, type HubLog } from './hub-resources.js';
import { readFleetMember, type FleetMemberObject, type MemberRelease } from './member-schema.js';
import { decideRollout, type RolloutDecision } from './rollout-decision.js';
import {
  ROLLOUT_PATHS,
  readFleetRollout,
  type FleetRolloutObject,
  type RolloutStatus,
} from './rollout-schema.js';
import { rfc3339 } from './schema-parts.js';

export interface RolloutControllerOptions {
  /** The hub's namespace, where FleetRollouts live. */
  readonly namespace: string;
  readonly log: HubLog;
  /** Changes arriving within this long are decided together. @default 100 */
  readonly debounceMs?: number;
  /** The controller's clock (milliseconds). */
  readonly now?: () => number;
}

/** Phases after which a rollout is not looked at again until its spec changes. */
const FINAL = new Set(['Halted', 'Aborted', 'Succeeded']);

/** How long a write of this controller stands in for the cache, which may not show it yet. */
const OVERLAY_MS = 60_000;

/** A status without the fields that change with every pass, to tell whether a write is needed. */
const comparable = (s: RolloutStatus | undefined) => JSON.stringify({ ...s, updatedAt: undefined });

/**
 * Runs every FleetRollout of the hub's namespace (`decideRollout`): watches FleetRollouts and
 * FleetMembers (watch-fed caches; no polling), decides after each change (debounced), writes each
 * release to its FleetMember's `spec.release` (a merge patch of the spec, nothing else), then the
 * rollout's status when it changed, and sets one timer for the earliest `nextCheckAt` (a bake
 * ending, a deadline, a window opening). A rollout that halts gets a Warning Event
 * `RolloutHalted`. Of two rollouts of one environment the newer supersedes the older, which
 * releases nothing more. A final rollout (halted, aborted, succeeded) is left alone until its
 * spec changes. It never deletes a release.
 */
export class RolloutController {
  readonly members: KindCache;
  readonly rollouts: KindCache;
  private readonly now: () => number;
  private debounce: ReturnType<typeof setTimeout> | undefined;
  private wake: { at: number; timer: ReturnType<typeof setTimeout> } | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Releases and statuses written, until the caches show them (a watch lags its own writes). */
  private readonly writtenReleases = new Map<string, { release: MemberRelease; at: number }>();
  private readonly writtenStatus = new Map<string, { status: RolloutStatus; at: number }>();
  /** Releases written (for tests and the bench). */
  releases = 0;
  /** Passes run (for tests and the bench). */
  passes = 0;

  constructor(
    private readonly client: KubeClient,
    private readonly opts: RolloutControllerOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const onError = (what: string) => (err: unknown) => opts.log.warn({ err: errorMessage(err) }, what);
    const onChange = () => this.schedule();
    this.members = new KindCache(client, HUB_RESOURCES.fleetMembers, {
      onError: onError('FleetMember watch'),
      onChange,
    });
    this.rollouts = new KindCache(client, HUB_RESOURCES.fleetRollouts, {
      namespace: opts.namespace,
      onError: onError('FleetRollout watch'),
      onChange,
    });
  }

  /** Fills both caches and decides once; resolves after that first pass. */
  async start(): Promise<void> {
    await Promise.all([this.members.start(), this.rollouts.start()]);
    await this.pass();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.wake) clearTimeout(this.wake.timer);
    this.members.stop();
    this.rollouts.stop();
    await this.running;
  }

  private schedule(delayMs = this.opts.debounceMs ?? 100): void {
    if (this.stopped || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.pass();
    }, delayMs);
    this.debounce.unref?.();
  }

  /** One pass over every rollout; a pass asked for while one runs runs right after it. */
  async pass(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.decideAll()
      .catch((err: unknown) => {
        this.opts.log.warn({ err: errorMessage(err) }, 'rollout pass failed');
        this.schedule(5000);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.pass();
        }
      });
    return this.running;
  }

  private async decideAll(): Promise<void> {
    if (!this.members.healthy || !this.rollouts.healthy) return; // a watch is down: decide on nothing stale
    this.passes++;
    const now = this.now();
    const members: FleetMemberObject[] = [];
    for (const o of this.members.objects()) {
      try {
        members.push(this.withWrittenRelease(readFleetMember(o), now));
      } catch {
        // A FleetMember this version cannot read is in no rollout.
      }
    }
    const rollouts: FleetRolloutObject[] = [];
    for (const o of this.rollouts.objects(this.opts.namespace)) {
      try {
        rollouts.push(this.withWrittenStatus(readFleetRollout(o), now));
      } catch (err) {
        this.opts.log.warn(
          { rollout: o.metadata.name, err: errorMessage(err).slice(0, 300) },
          'rollout unreadable',
        );
      }
    }
    const newest = new Map<string, FleetRolloutObject>();
    for (const r of rollouts) {
      const seen = newest.get(r.spec.environment);
      if (!seen || `${r.creationTimestamp ?? ''}/${r.name}` > `${seen.creationTimestamp ?? ''}/${seen.name}`)
        newest.set(r.spec.environment, r);
    }
    let nextAt: number | undefined;
    for (const r of rollouts) {
      if (r.status && FINAL.has(r.status.phase) && r.status.observedGeneration === r.generation) continue;
      const newer = newest.get(r.spec.environment);
      try {
        const decision = decideRollout(
          r,
          members,
          now,
          newer && newer !== r ? { supersededBy: newer.name } : {},
        );
        await this.act(r, decision);
        if (decision.nextCheckAt !== undefined) nextAt = Math.min(nextAt ?? Infinity, decision.nextCheckAt);
      } catch (err) {
        // One rollout's trouble is its own: the others go on, and this one is tried again.
        this.opts.log.warn({ rollout: r.name, err: errorMessage(err) }, 'rollout not decided');
        this.schedule(5000);
      }
    }
    this.wakeAt(nextAt);
  }

  private async act(r: FleetRolloutObject, d: RolloutDecision): Promise<void> {
    let failed = false;
    for (const { member, release } of d.releases) {
      try {
        await this.client.request('PATCH', HUB_PATHS.fleetMember(member), {
          body: { spec: { release } },
          contentType: 'application/merge-patch+json',
        });
        this.releases++;
        this.writtenReleases.set(member, { release, at: this.now() });
        this.opts.log.info({ rollout: r.name, member, wave: release.wave }, 'released');
      } catch (err) {
        failed = true;
        this.opts.log.warn({ rollout: r.name, member, err: errorMessage(err) }, 'release not written');
      }
    }
    if (comparable(d.status) !== comparable(r.status)) {
      // A merge patch: keys the new status no longer has are removed with null.
      const removed = Object.fromEntries(
        Object.keys(r.status ?? {})
          .filter((k) => !(k in d.status))
          .map((k) => [k, null]),
      );
      try {
        await this.client.request('PATCH', ROLLOUT_PATHS.status(this.opts.namespace, r.name), {
          body: { status: { ...removed, ...d.status } },
          contentType: 'application/merge-patch+json',
        });
        this.writtenStatus.set(r.name, { status: d.status, at: this.now() });
      } catch (err) {
        failed = true;
        this.opts.log.warn({ rollout: r.name, err: errorMessage(err) }, 'rollout status not written');
      }
    }
    if (d.halt) await this.haltEvent(r, d.halt);
    if (failed) this.schedule(5000);
  }

  /** The alert of a halt: a Warning Event on the FleetRollout (watched by alerting, shown by kubectl). */
  private async haltEvent(r: FleetRolloutObject, halt: { reason: string; message: string }): Promise<void> {
    this.opts.log.warn({ rollout: r.name, reason: halt.reason, message: halt.message }, 'rollout halted');
    const at = rfc3339(this.now());
    try {
      await this.client.request('POST', `/api/v1/namespaces/${this.opts.namespace}/events`, {
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { generateName: `${r.name}.`, namespace: this.opts.namespace },
          involvedObject: {
            apiVersion: HUB_API_VERSION,
            kind: 'FleetRollout',
            name: r.name,
            namespace: this.opts.namespace,
          },
          type: 'Warning',
          reason: 'RolloutHalted',
          message: `${halt.reason}: ${halt.message}`.slice(0, 1024),
          source: { component: 'groundwork-hub' },
          firstTimestamp: at,
          lastTimestamp: at,
          count: 1,
        },
      });
    } catch (err) {
      this.opts.log.warn({ rollout: r.name, err: errorMessage(err) }, 'halt event not recorded');
    }
  }

  /** The member with the release this controller wrote, while the cache does not show it yet. */
  private withWrittenRelease(m: FleetMemberObject, now: number): FleetMemberObject {
    const written = this.writtenReleases.get(m.name);
    if (!written) return m;
    if (JSON.stringify(m.spec.release) === JSON.stringify(written.release) || now - written.at > OVERLAY_MS) {
      this.writtenReleases.delete(m.name);
      return m;
    }
    return { ...m, spec: { ...m.spec, release: written.release } };
  }

  /** The rollout with the status this controller wrote, while the cache does not show it yet. */
  private withWrittenStatus(r: FleetRolloutObject, now: number): FleetRolloutObject {
    const written = this.writtenStatus.get(r.name);
    if (!written) return r;
    if (comparable(r.status) === comparable(written.status) || now - written.at > OVERLAY_MS) {
      this.writtenStatus.delete(r.name);
      return r;
    }
    return { ...r, status: written.status };
  }

  /** One timer, for the earliest time a rollout asked to be looked at again. */
  private wakeAt(at: number | undefined): void {
    if (this.wake && (at === undefined || this.wake.at !== at)) {
      clearTimeout(this.wake.timer);
      this.wake = undefined;
    }
    if (at === undefined || this.wake || this.stopped) return;
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        void this.pass();
      },
      Math.max(0, at - this.now()),
    );
    timer.unref?.();
    this.wake = { at, timer };
  }
}
