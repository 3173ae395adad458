import type { KubeClient } from '../cluster/client.js';
import { KindCache } from '../cluster/object-cache.js';
import { errorMessage } from '../core/errors.js';
import { HUB_NAMESPACE } from '../hub/hub-names.js';
import { HUB_RESOURCES } from '../hub/hub-resources.js';
import { readFleetMember, type FleetMemberObject } from '../hub/member-schema.js';
import { readFleetRollout, type FleetRolloutObject } from '../hub/rollout-schema.js';
import type { FleetReader, FleetState, HubFleetView } from './fleet-state.js';

export interface HubFleetSourceOptions {
  /** At most one change notice per this long, however busy the hub is (heartbeats). @default 1000 */
  notifyMs?: number;
  /** The hub's namespace, where FleetRollouts live. @default HUB_NAMESPACE */
  namespace?: string;
  onError?: (err: unknown) => void;
}

/**
 * The Fleet page's source with `groundwork ui --hub`: ONE watch of FleetMembers (every namespace)
 * and one of FleetRollouts (the hub's namespace), as two watch-fed `KindCache`s, so a page costs
 * the hub no request, however many members and browsers there are. Every object is parsed with the
 * hub's own schemas (`readFleetMember`, `readFleetRollout`): one that does not parse is left out
 * and named in `problems`, never trusted. Change notices are coalesced to one per `notifyMs`.
 */
export class HubFleetSource implements FleetReader {
  private readonly members: KindCache;
  private readonly rollouts: KindCache;
  private readonly listeners = new Set<() => void>();
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private cached: { key: string; view: HubFleetView } | undefined;
  private error: string | undefined;
  private started = false;

  constructor(
    client: KubeClient,
    private readonly opts: HubFleetSourceOptions = {},
  ) {
    const common = { onError: (e: unknown) => this.failed(e), onChange: () => this.changed() };
    this.members = new KindCache(client, HUB_RESOURCES.fleetMembers, common);
    this.rollouts = new KindCache(client, HUB_RESOURCES.fleetRollouts, {
      ...common,
      namespace: opts.namespace ?? HUB_NAMESPACE,
    });
  }

  /** Lists both kinds, then watches them; rejects when the hub cannot be listed (not installed, RBAC). */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([this.members.start(), this.rollouts.start()]);
  }

  stop(): void {
    this.members.stop();
    this.rollouts.stop();
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.listeners.clear();
  }

  /** The watches run from `start`: nothing to wake. */
  wanted(): void {}

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  state(): FleetState {
    return {
      reading: !this.started,
      intervalMs: 0,
      hub: this.view(),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  /** The caches parsed (once per change of either). */
  private view(): HubFleetView {
    const key = `${this.members.version}:${this.rollouts.version}`;
    if (this.cached?.key === key) return this.cached.view;
    const problems: string[] = [];
    const members: FleetMemberObject[] = [];
    for (const o of this.members.objects()) {
      try {
        members.push(readFleetMember(o));
      } catch {
        problems.push(`a FleetMember in ${o.metadata.namespace ?? '?'} does not parse: left out`);
      }
    }
    const rollouts: FleetRolloutObject[] = [];
    for (const o of this.rollouts.objects()) {
      try {
        rollouts.push(readFleetRollout(o));
      } catch {
        problems.push(`a FleetRollout does not parse: left out`);
      }
    }
    const view: HubFleetView = {
      members,
      rollouts,
      problems,
      watching: this.members.healthy && this.rollouts.healthy,
    };
    this.cached = { key, view };
    return view;
  }

  private failed(err: unknown): void {
    this.error = errorMessage(err);
    this.opts.onError?.(err);
  }

  private changed(): void {
    this.error = undefined;
    if (this.notifyTimer) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      for (const l of this.listeners) l();
    }, this.opts.notifyMs ?? 1000);
    this.notifyTimer.unref?.();
  }
}
