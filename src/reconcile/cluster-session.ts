import { ObjectCacheSet, type KindCacheOptions } from '../cluster/object-cache.js';
import { ClusterApplyTarget } from '../cluster/apply-target.js';
import type { KubeClient } from '../cluster/client.js';
import { Discovery } from '../cluster/discovery.js';
import { InventoryStore } from '../cluster/inventory-store.js';
import { ClusterObserver } from '../cluster/observer.js';
import { WatchScope } from '../cluster/watch-scope.js';
import { UnchangedMemo } from '../plan/unchanged-memo.js';

/** The adapters one reconcile needs, built once per cluster connection. */
export class ClusterSession {
  readonly discovery: Discovery;
  readonly observer: ClusterObserver;
  readonly target: ClusterApplyTarget;
  readonly inventory: InventoryStore;
  /** Where the agent's caches and drift watches read each kind: cluster-wide when allowed, else per namespace. */
  readonly scope: WatchScope;

  /** Watch-fed caches of the managed kinds (the agent's sessions); undefined: every read is a LIST. */
  readonly cache: ObjectCacheSet | undefined;
  /** The request-free no-op test's answers, kept across plans (`UnchangedMemo`). */
  readonly unchanged = new UnchangedMemo();

  constructor(
    readonly client: KubeClient,
    opts: {
      inventoryNamespace?: string;
      cache?: KindCacheOptions | boolean;
      /** Warnings of a read that went on (an inventory entry that is not a valid id). @default stderr */
      onWarning?: (message: string) => void;
    } = {},
  ) {
    this.discovery = new Discovery(client);
    this.scope = new WatchScope(client);
    this.cache = opts.cache
      ? new ObjectCacheSet(client, this.discovery, {
          ...(opts.cache === true ? {} : opts.cache),
          scope: this.scope,
        })
      : undefined;
    this.observer = new ClusterObserver(client, this.discovery, this.cache ? { cache: this.cache } : {});
    this.target = new ClusterApplyTarget(client, this.discovery);
    this.inventory = new InventoryStore(client, {
      ...(opts.inventoryNamespace ? { namespace: opts.inventoryNamespace } : {}),
      ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    });
  }
}
