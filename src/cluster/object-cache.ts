import { idOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { ApiError } from './api-error.js';
import { FieldsInterner } from './fields-interner.js';
import type { KubeClient } from './client.js';
import type { ResourceInfo } from './discovery.js';
import { listWithVersion } from './list.js';
import { watchKind } from './watch.js';
import type { ListScope, WatchScope } from './watch-scope.js';

export interface KindCacheOptions {
  /** Full relist as a safety net, even while the watch is healthy. @default 10 minutes */
  resyncMs?: number;
  /** Wait before resuming a failed watch. @default 1000 */
  retryMs?: number;
  onError?: (err: unknown) => void;
  /**
   * Which objects' events count as a change (`version`); others are cached all the same. A relist
   * always counts. @default every object
   */
  relevant?: (obj: K8sObject) => boolean;
  /** Cache one namespace only (a namespaced kind). @default every namespace */
  namespace?: string;
  /** Called after the cache changed (an event applied, a relist): a controller's trigger. */
  onChange?: () => void;
}

/** What the cache did: how many LISTs (first fill and relists) and watch events it handled. */
interface KindCacheStats {
  lists: number;
  /** Relists after an expired watch (410 Gone). */
  expired: number;
  /** Periodic or requested resyncs. */
  resyncs: number;
  events: number;
}

/**
 * Every object of one kind (in one namespace with `namespace`), kept current by a watch (list, then watch from the list's
 * resourceVersion, with `watchKind`), as client-go's informers and Argo CD's cluster cache do:
 * reads cost no request while the watch is healthy. The watch resumes from the last
 * resourceVersion after the server closes the stream or restarts; an expired resourceVersion (410
 * Gone) relists; a periodic full relist (`resyncMs`) repairs anything a watch may have missed.
 * `healthy` is false from a watch failure until the watch runs again, so callers can fall back to
 * a LIST. The objects it returns are read, never written: their managedFields field sets are
 * shared between objects and frozen (`FieldsInterner`).
 */
export class KindCache {
  private readonly items = new Map<ObjectId, K8sObject>();
  /** The objects' managedFields field sets, shared where equal (they are read, never written). */
  private readonly fields = new FieldsInterner();
  private rv: string | undefined;
  private readonly controller = new AbortController();
  private running = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private syncedOnce: Promise<void> | undefined;
  private watching = false;
  readonly stats: KindCacheStats = { lists: 0, expired: 0, resyncs: 0, events: 0 };
  /**
   * Bumped by every relist and every event on a relevant object (`relevant`), so readers can tell
   * "nothing they care about changed".
   */
  version = 0;

  constructor(
    private readonly client: KubeClient,
    readonly info: ResourceInfo,
    private readonly opts: KindCacheOptions = {},
  ) {}

  /** Lists, then keeps watching until `stop()`; resolves once the first list is in. */
  start(): Promise<void> {
    if (this.syncedOnce) return this.syncedOnce;
    this.running = true;
    this.syncedOnce = this.relist().then(() => {
      let listed = true;
      void watchKind(this.client, this.info, {
        ...(this.opts.namespace !== undefined ? { namespace: this.opts.namespace } : {}),
        signal: this.controller.signal,
        retryMs: this.opts.retryMs ?? 1000,
        // The first watch continues from the list just made; after an expiry, from a new one.
        startVersion: async () => {
          if (!listed) await this.relist();
          listed = false;
          return this.rv!;
        },
        onStreaming: (up) => (this.watching = up),
        onEvent: (type, obj) => {
          this.stats.events++;
          if (this.opts.relevant?.(obj) ?? true) this.version++;
          if (type === 'DELETED') this.items.delete(idOf(obj));
          else this.items.set(idOf(obj), this.fields.intern(obj));
          this.opts.onChange?.();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 410) this.stats.expired++;
          else this.opts.onError?.(err);
        },
      });
      this.timer = setInterval(
        () => void this.resync().catch((e: unknown) => this.opts.onError?.(e)),
        this.opts.resyncMs ?? 600_000,
      );
      this.timer.unref?.();
    });
    return this.syncedOnce;
  }

  /** True while the cache is filled and its watch runs. */
  get healthy(): boolean {
    return this.running && this.rv !== undefined && this.watching;
  }

  /** The objects of the kind (in `namespace`, when given). */
  objects(namespace?: string): K8sObject[] {
    const all = [...this.items.values()];
    return namespace === undefined ? all : all.filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  get(id: ObjectId): K8sObject | undefined {
    return this.items.get(id);
  }

  /** A full relist now, replacing the contents (what the periodic resync does). */
  async resync(): Promise<void> {
    this.stats.resyncs++;
    await this.relist();
  }

  stop(): void {
    this.running = false;
    this.controller.abort();
    if (this.timer) clearInterval(this.timer);
  }

  private async relist(): Promise<void> {
    const { items, resourceVersion } = await listWithVersion(this.client, this.info, this.opts.namespace);
    this.stats.lists++;
    this.version++;
    this.items.clear();
    for (const o of items) this.items.set(idOf(o), this.fields.intern(o));
    this.rv = resourceVersion;
    this.opts.onChange?.();
  }
}

/**
 * Watch-fed caches for the kinds an agent manages, started as kinds appear and stopped as they
 * go: one per kind, or one per kind and namespace where `scope` says the agent may not read the
 * kind cluster-wide (least-privilege RBAC). `lookup` answers only with a healthy cache, so a
 * reader falls back to a LIST whenever a watch is down, still filling, or expired.
 */
export class ObjectCacheSet {
  private readonly caches = new Map<string, KindCache>();
  private stopped = false;
  /** What the plan reads: the tracked objects, and every object in a namespace they declare. */
  private scope: { ids: ReadonlySet<ObjectId>; namespaces: Set<string> } = {
    ids: new Set(),
    namespaces: new Set(),
  };

  constructor(
    private readonly client: KubeClient,
    private readonly discovery: {
      tryResolve(apiVersion: string, kind: string): Promise<ResourceInfo | undefined>;
    },
    private readonly opts: KindCacheOptions & {
      /** Where each kind is read; without it, every kind cluster-wide. */
      scope?: Pick<WatchScope, 'of'>;
    } = {},
  ) {}

  /**
   * Caches every kind of `objects`; stops the caches of kinds no longer among them. Resolves true
   * when every kind is cached (false: some kind is not served yet). Events move the `fingerprint`
   * only for these objects and for objects in the namespaces they declare (what a plan and its
   * drift check read); a change elsewhere in the cluster does not. `ids`: the objects' ids when the
   * caller has them (read and never changed here). @default the ids of `objects`
   */
  async track(
    objects: readonly Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>[],
    ids: ReadonlySet<ObjectId> = new Set(objects.map(idOf)),
  ): Promise<boolean> {
    this.scope = {
      ids,
      namespaces: new Set(
        objects.filter((o) => o.apiVersion === 'v1' && o.kind === 'Namespace').map((o) => o.metadata.name),
      ),
    };
    const wanted = new Map<string, { info: ResourceInfo; namespace: ListScope }>();
    const namespacesOf = new Map<string, Set<string>>();
    for (const o of objects) {
      const key = `${o.apiVersion}\n${o.kind}`;
      namespacesOf.set(key, (namespacesOf.get(key) ?? new Set()).add(o.metadata.namespace ?? ''));
    }
    let all = true;
    for (const [key, namespaces] of namespacesOf) {
      const [apiVersion, kind] = key.split('\n') as [string, string];
      const info = await this.discovery.tryResolve(apiVersion, kind);
      if (!info) {
        all = false;
        continue;
      }
      const scopes = this.opts.scope ? await this.opts.scope.of(info, namespaces) : [undefined];
      for (const namespace of scopes) wanted.set(keyOf(info, namespace), { info, namespace });
    }
    if (this.stopped) return all;
    for (const [key, cache] of this.caches)
      if (!wanted.has(key)) {
        cache.stop();
        this.caches.delete(key);
      }
    for (const [key, { info, namespace }] of wanted) {
      if (this.caches.has(key)) continue;
      const { scope: _scope, ...cacheOpts } = this.opts;
      const cache = new KindCache(this.client, info, {
        ...cacheOpts,
        ...(namespace !== undefined ? { namespace } : {}),
        relevant: (o) => this.scope.ids.has(idOf(o)) || this.scope.namespaces.has(o.metadata.namespace ?? ''),
      });
      this.caches.set(key, cache);
      void cache.start().catch((err: unknown) => this.opts.onError?.(err));
    }
    return all;
  }

  /**
   * The cache holding the kind's objects in `namespace` (all namespaces: undefined) when it is
   * filled and its watch runs; undefined otherwise. A kind cached per namespace has no answer for
   * all namespaces.
   */
  lookup(info: ResourceInfo, namespace?: string): KindCache | undefined {
    const cache =
      this.caches.get(keyOf(info, undefined)) ??
      (namespace !== undefined ? this.caches.get(keyOf(info, namespace)) : undefined);
    return cache?.healthy ? cache : undefined;
  }

  /**
   * A token that changes whenever any cached object may have changed: an event, a relist, a kind
   * added or dropped. Undefined while any cache is unhealthy, and once stopped (then nothing can be
   * known unchanged).
   */
  fingerprint(): string | undefined {
    if (this.stopped) return undefined;
    const parts: string[] = [];
    for (const [key, cache] of [...this.caches].sort(([a], [b]) => a.localeCompare(b))) {
      if (!cache.healthy) return undefined;
      parts.push(`${key}@${cache.version}`);
    }
    return parts.join(',');
  }

  /** Kinds cached, healthy or not (`group/version/kind`, with `@<namespace>` when cached per namespace). */
  get kinds(): string[] {
    return [...this.caches.keys()].sort();
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.caches.values()) c.stop();
    this.caches.clear();
  }
}

function keyOf(info: ResourceInfo, namespace: ListScope): string {
  return `${info.group}/${info.version}/${info.kind}${namespace === undefined ? '' : `@${namespace}`}`;
}
