import type { KubeClient } from '../cluster/client.js';
import type { Discovery, ResourceInfo } from '../cluster/discovery.js';
import { watchKind, type WatchEventType } from '../cluster/watch.js';
import type { WatchScope } from '../cluster/watch-scope.js';
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
 * may have missed events. A kind is watched cluster-wide, or in each namespace holding managed
 * objects of it where `scope` says the agent may not watch it cluster-wide (least-privilege RBAC).
 */
export class DriftWatch {
  private readonly watches = new Map<string, AbortController>();
  private managed: ReadonlySet<ObjectId> = new Set<ObjectId>();
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
      /** Where each kind is watched; without it, every kind cluster-wide. */
      scope?: Pick<WatchScope, 'of'>;
    },
  ) {}

  /**
   * Sets the managed objects; starts watches for new kinds and stops those no longer managed.
   * Resolves true when every kind is watched (false: some kind is not served yet). `ids`: the
   * objects' ids when the caller has them (the manifests' own, read and never changed here), so
   * that no second set of 20,000 id strings is built. @default the ids of `objects`
   */
  async track(
    objects: readonly Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>[],
    ids: ReadonlySet<ObjectId> = new Set(objects.map(idOf)),
  ): Promise<boolean> {
    this.managed = ids;
    const kinds = new Map<string, { apiVersion: string; kind: string; namespaces: Set<string> }>();
    for (const o of objects) {
      const key = `${o.apiVersion}/${o.kind}`;
      const k = kinds.get(key) ?? { apiVersion: o.apiVersion, kind: o.kind, namespaces: new Set<string>() };
      k.namespaces.add(o.metadata.namespace ?? '');
      kinds.set(key, k);
    }
    const wanted = new Map<string, { info: ResourceInfo; namespace: string | undefined }>();
    let all = true;
    for (const k of kinds.values()) {
      if (this.stopped) return all;
      const info = await this.discovery.tryResolve(k.apiVersion, k.kind);
      if (!info) {
        all = false; // not served yet (an operator's CRD): tracked again after the next reconcile
        continue;
      }
      const scopes = this.opts.scope ? await this.opts.scope.of(info, k.namespaces) : [undefined];
      for (const namespace of scopes)
        wanted.set(`${k.apiVersion}/${k.kind}${namespace === undefined ? '' : `@${namespace}`}`, {
          info,
          namespace,
        });
    }
    // stop() may have come while discovery answered: a watch started now would outlive the agent.
    if (this.stopped) return all;
    for (const [key, controller] of this.watches) {
      if (!wanted.has(key)) {
        controller.abort();
        this.watches.delete(key);
      }
    }
    for (const [key, { info, namespace }] of wanted) {
      if (this.watches.has(key)) continue;
      const controller = new AbortController();
      this.watches.set(key, controller);
      // One resync when a watch fails, one more when it streams again, none per retry in between:
      // a watch refused for a while (Forbidden until bootstrap runs again) must not re-plan every second.
      let failures = 0;
      void watchKind(this.client, info, {
        ...(namespace !== undefined ? { namespace } : {}),
        onStreaming: (up) => {
          if (up && failures > 1) this.opts.onResync();
          if (up) failures = 0;
        },
        signal: controller.signal,
        onEvent: (type, obj) => this.seen(type, obj),
        onResync: () => {
          if (failures++ === 0) this.opts.onResync();
        },
        ...(this.opts.onError ? { onError: this.opts.onError } : {}),
      });
    }
    return all;
  }

  /** Kinds currently watched (`apiVersion/kind`, with `@<namespace>` when watched per namespace). */
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
