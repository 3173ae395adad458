import type { KubeClient } from '../cluster/client.js';
import type { Discovery } from '../cluster/discovery.js';
import { watchKind, type WatchEventType } from '../cluster/watch.js';
import { idOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';

/** A change the watches saw on a managed object. */
export interface ObservedChange {
  id: ObjectId;
  type: WatchEventType;
  /** The object as the event carried it (for DELETED: its last state). */
  object: K8sObject;
  /** When the event arrived (ms since epoch), for the drift-detection latency metric. */
  seenAt: number;
}

/**
 * Watches the kinds Groundwork manages and hands over changes to managed objects in small
 * batches (`debounceMs`), so drift is re-planned for just the affected objects within a second.
 * Objects outside the managed set are ignored. `onResync` asks for a full re-plan when a watch
 * may have missed events.
 */
export class DriftWatch {
  private readonly watches = new Map<string, AbortController>();
  private managed = new Set<ObjectId>();
  private pending = new Map<ObjectId, ObservedChange>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly client: KubeClient,
    private readonly discovery: Discovery,
    private readonly opts: {
      onChanges: (changes: ObservedChange[]) => void;
      onResync: () => void;
      onError?: (err: unknown) => void;
      debounceMs?: number;
    },
  ) {}

  /**
   * Sets the managed objects; starts watches for new kinds and stops those no longer managed.
   * Resolves true when every kind is watched (false: some kind is not served yet).
   */
  async track(objects: readonly Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>[]): Promise<boolean> {
    this.managed = new Set(objects.map(idOf));
    const kinds = new Map(objects.map((o) => [`${o.apiVersion}/${o.kind}`, o]));
    for (const [key, controller] of this.watches) {
      if (!kinds.has(key)) {
        controller.abort();
        this.watches.delete(key);
      }
    }
    let all = true;
    for (const [key, o] of kinds) {
      if (this.stopped) return all;
      if (this.watches.has(key)) continue;
      const info = await this.discovery.tryResolve(o.apiVersion, o.kind);
      // stop() may have come while discovery answered: a watch started now would outlive the agent.
      if (this.stopped) return all;
      if (!info) {
        all = false; // not served yet (an operator's CRD): tracked again after the next reconcile
        continue;
      }
      const controller = new AbortController();
      this.watches.set(key, controller);
      void watchKind(this.client, info, {
        signal: controller.signal,
        onEvent: (type, obj) => this.seen(type, obj),
        onResync: () => this.opts.onResync(),
        ...(this.opts.onError ? { onError: this.opts.onError } : {}),
      });
    }
    return all;
  }

  /** Kinds currently watched (`apiVersion/kind`). */
  get kinds(): string[] {
    return [...this.watches.keys()].sort();
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.watches.values()) c.abort();
    this.watches.clear();
    if (this.timer) clearTimeout(this.timer);
  }

  private seen(type: WatchEventType, obj: K8sObject): void {
    const id = idOf(obj);
    if (!this.managed.has(id)) return;
    this.pending.set(id, { id, type, object: obj, seenAt: Date.now() });
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const batch = [...this.pending.values()];
      this.pending.clear();
      this.opts.onChanges(batch);
    }, this.opts.debounceMs ?? 100);
  }
}
