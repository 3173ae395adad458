import type { KubeClient } from '../cluster/client.js';
import { Discovery, type ResourceInfo } from '../cluster/discovery.js';
import { KindCache, ObjectCacheSet } from '../cluster/object-cache.js';
import { platformSyncSchema } from '../cluster/sync-status-store.js';
import {
  INVENTORY_LABEL,
  INVENTORY_NAMESPACE,
  parseInventoryData,
  type Inventory,
} from '../apply/inventory.js';
import { errorMessage } from '../core/errors.js';
import { parseId, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { redactSecret } from '../core/redact.js';
import { SyncStatus } from '../report/sync-status.js';
import { platformSyncName } from '../cluster/sync-status-store.js';
import { z } from 'zod';
import type { ResourceOf } from './access-attributes.js';
import type { DesiredSource } from './desired-objects.js';
import { desiredDetail } from './desired-detail.js';
import { driftRows } from './drift-rows.js';
import { eventsFor } from './object-events.js';
import { objectRows, type LiveLookup } from './object-rows.js';
import type { DashboardSnapshot, ObjectDetail, OpenShiftView, SyncView } from './snapshot.js';

export interface ClusterSourceOptions {
  /** Namespace of the PlatformSync objects. @default every namespace */
  namespace?: string;
  /** The PlatformSync to show. @default the first by namespace and name */
  sync?: string;
  /** Namespace of the inventory ConfigMaps. @default INVENTORY_NAMESPACE */
  inventoryNamespace?: string;
  /** The ClusterVersion the OpenShift page shows. @default 'version' (the only one a cluster has) */
  clusterVersion?: string;
  /** How often the caches' change counters are compared (in memory: no request). @default 250 */
  checkMs?: number;
  onError?: (err: unknown) => void;
  /**
   * The desired objects (the agent's last applied revision) for the object page's desired object and
   * diff and the Drift page's git values. @default none: the pages say where to see them
   */
  desired?: DesiredSource;
}

const OPENSHIFT_KINDS = {
  clusterVersion: ['config.openshift.io/v1', 'ClusterVersion'],
  clusterOperators: ['config.openshift.io/v1', 'ClusterOperator'],
  pools: ['machineconfiguration.openshift.io/v1', 'MachineConfigPool'],
  subscriptions: ['operators.coreos.com/v1alpha1', 'Subscription'],
  csvs: ['operators.coreos.com/v1alpha1', 'ClusterServiceVersion'],
  installPlans: ['operators.coreos.com/v1alpha1', 'InstallPlan'],
} as const;
type OpenShiftPart = keyof typeof OPENSHIFT_KINDS;

const configMapData = z.looseObject({ data: z.record(z.string(), z.string()).nullish() });

/**
 * The dashboard's view of a cluster, fed by watches only: the PlatformSyncs, the inventory
 * ConfigMaps, every managed object (an `ObjectCacheSet` tracking the inventory's kinds), Events and
 * the OpenShift kinds the cluster serves. Pages read `snapshot()`, which costs no request; any number
 * of browsers share these caches, so an open dashboard never polls the apiserver. `onChange` is told
 * (at most every `checkMs`) when some cache moved. Read-only: it writes nothing to the cluster.
 */
export class ClusterDashboardSource {
  private readonly discovery: Discovery;
  private readonly objects: ObjectCacheSet;
  private readonly caches = new Map<string, KindCache>();
  private readonly listeners = new Set<() => void>();
  private readonly problems = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The key the cached snapshot was built at (page requests rebuild it). */
  private lastKey = '';
  /**
   * The key `check` last handled, apart from `lastKey`: a page request that rebuilds the snapshot
   * must not swallow a change before `check` retracks the inventory's kinds and tells the listeners.
   */
  private checkedKey = '';
  private trackedInventory = '';
  private cached: DashboardSnapshot | undefined;
  private infos = new Map<string, ResourceInfo>();

  constructor(
    private readonly client: KubeClient,
    private readonly opts: ClusterSourceOptions = {},
  ) {
    this.discovery = new Discovery(client);
    this.objects = new ObjectCacheSet(client, this.discovery, { onError: (e) => this.opts.onError?.(e) });
  }

  /** Starts the watches; resolves once the PlatformSyncs and inventories are listed. */
  async start(): Promise<void> {
    const psync = await this.cache('psync', 'groundwork.io/v1alpha1', 'PlatformSync', this.opts.namespace);
    if (!psync)
      this.problems.set(
        'psync',
        'the cluster serves no PlatformSync (groundwork.io/v1alpha1): is the agent installed?',
      );
    await this.cache('inventory', 'v1', 'ConfigMap', this.opts.inventoryNamespace ?? INVENTORY_NAMESPACE);
    await Promise.all([
      this.cache('events', 'v1', 'Event'),
      ...Object.entries(OPENSHIFT_KINDS).map(([part, [apiVersion, kind]]) =>
        this.cache(part, apiVersion, kind),
      ),
    ]);
    await this.retrack();
    this.timer = setInterval(() => void this.check(), this.opts.checkMs ?? 250);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    for (const c of this.caches.values()) c.stop();
    this.objects.stop();
    this.listeners.clear();
  }

  /** Calls `listener` after each change of the snapshot; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A token that changes whenever the snapshot may have (for the Server-Sent Events' ids). */
  get version(): string {
    return this.key();
  }

  /** What the pages render, as of now (recomputed only after a change). */
  snapshot(): DashboardSnapshot {
    if (this.cached && this.lastKey === this.key()) return this.cached;
    this.lastKey = this.key();
    this.cached = this.build();
    return this.cached;
  }

  /** One managed object's page data; undefined when the inventory does not list `id`. */
  detail(id: ObjectId): ObjectDetail | undefined {
    const s = this.snapshot();
    const row = s.objects.find((o) => o.id === id);
    if (!row) return undefined;
    const live = this.live(id);
    const obj = typeof live === 'object' ? live : undefined;
    const redacted = obj ? redactSecret(obj) : undefined;
    const desired = desiredDetail(this.opts.desired?.(), id, redacted);
    return {
      row,
      live: redacted,
      events: obj ? eventsFor(obj, this.caches.get('events')?.objects() ?? []) : [],
      ...(desired ? { desired } : {}),
    };
  }

  private async cache(
    key: string,
    apiVersion: string,
    kind: string,
    namespace?: string,
  ): Promise<KindCache | undefined> {
    let info: ResourceInfo | undefined;
    try {
      info = await this.discovery.tryResolve(apiVersion, kind);
    } catch (err) {
      this.problems.set(key, `${kind}: ${errorMessage(err)}`);
      return undefined;
    }
    if (!info) return undefined;
    const cache = new KindCache(this.client, info, {
      ...(namespace !== undefined ? { namespace } : {}),
      onError: (e) => this.opts.onError?.(e),
    });
    this.caches.set(key, cache);
    try {
      await cache.start();
    } catch (err) {
      // Not allowed to list (RBAC) or not reachable: say so on every page, keep the rest.
      this.problems.set(key, `${kind}: ${errorMessage(err)}`);
      cache.stop();
      this.caches.delete(key);
      return undefined;
    }
    return cache;
  }

  private key(): string {
    // Events are left out: in a busy cluster they change several times a second, anywhere, and would
    // make every open page refetch itself; the object page reads them fresh when it is rendered.
    const parts = [...this.caches].filter(([k]) => k !== 'events').map(([k, c]) => `${k}@${c.version}`);
    // The desired objects' revision too: a page compares with them.
    return `${parts.join(',')}|${this.objects.fingerprint() ?? 'unhealthy'}|${this.opts.desired?.()?.revision ?? ''}`;
  }

  private async check(): Promise<void> {
    const key = this.key();
    if (key === this.checkedKey) return;
    this.checkedKey = key;
    if (inventoryKey(this.inventory()) !== this.trackedInventory)
      await this.retrack().catch((e: unknown) => this.opts.onError?.(e));
    this.snapshot();
    for (const l of this.listeners) l();
  }

  /** Watches the kinds of the selected inventory's objects. */
  private async retrack(): Promise<void> {
    const inv = this.inventory();
    this.trackedInventory = inventoryKey(inv);
    const pseudo: K8sObject[] = [];
    for (const id of inv?.objects ?? []) {
      const ref = parseId(id);
      const key = `${ref.group}/${ref.kind}`;
      let info = this.infos.get(key);
      if (!info) {
        try {
          info = await this.discovery.resolveGroupKind(ref.group, ref.kind);
        } catch {
          info = undefined;
        }
        if (info) this.infos.set(key, info);
      }
      if (!info) continue;
      pseudo.push({
        apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
        kind: info.kind,
        metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
      });
    }
    await this.objects.track(pseudo);
  }

  private syncs(): SyncView[] {
    const out: SyncView[] = [];
    for (const raw of this.caches.get('psync')?.objects() ?? []) {
      const parsed = platformSyncSchema.safeParse(raw);
      if (!parsed.success) continue;
      const o = parsed.data;
      let status: SyncView['status'];
      let statusProblem: string | undefined;
      try {
        status = o.status === undefined ? undefined : SyncStatus.parse(o.status).value;
      } catch (err) {
        statusProblem = errorMessage(err);
      }
      out.push({
        name: o.metadata.name,
        namespace: o.metadata.namespace ?? '',
        spec: o.spec,
        status,
        ...(statusProblem ? { statusProblem } : {}),
      });
    }
    return out.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
  }

  private selectedSync(syncs: readonly SyncView[]): number | undefined {
    const i = this.opts.sync ? syncs.findIndex((s) => s.name === this.opts.sync) : syncs.length > 0 ? 0 : -1;
    return i >= 0 ? i : undefined;
  }

  /** The inventory of the selected sync: the one whose platform and overlay name it. */
  private inventory(): Inventory | undefined {
    const syncs = this.syncs();
    const i = this.selectedSync(syncs);
    const sync = i !== undefined ? syncs[i] : undefined;
    for (const cm of this.caches.get('inventory')?.objects() ?? []) {
      if (cm.metadata.labels?.[INVENTORY_LABEL] !== 'true') continue;
      let inv: Inventory;
      try {
        inv = parseInventoryData(configMapData.parse(cm).data ?? undefined);
      } catch {
        continue;
      }
      if (!sync || platformSyncName(inv.platform, inv.overlay) === sync.name) return inv;
    }
    return undefined;
  }

  /** The resource of a kind the inventory lists (for authorizing its objects); undefined when not served. */
  readonly resourceOf: ResourceOf = (group, kind) => {
    const info = this.infos.get(`${group}/${kind}`);
    return info ? { resource: info.resource, namespaced: info.namespaced } : undefined;
  };

  private live: LiveLookup = (id) => {
    const info = this.infoOf(id);
    if (!info) return 'unknown';
    const ref = parseId(id);
    const cache = this.objects.lookup(info, ref.namespace || undefined);
    if (!cache) return 'unknown';
    return cache.get(id) ?? 'absent';
  };

  private infoOf(id: ObjectId): ResourceInfo | undefined {
    const ref = parseId(id);
    return this.infos.get(`${ref.group}/${ref.kind}`);
  }

  private build(): DashboardSnapshot {
    const syncs = this.syncs();
    const selected = this.selectedSync(syncs);
    const inv = this.inventory();
    const status = selected !== undefined ? syncs[selected]!.status : undefined;
    const ids = [...(inv?.objects ?? [])];
    const desired = this.opts.desired?.();
    const openshift: OpenShiftView = {};
    for (const part of Object.keys(OPENSHIFT_KINDS) as OpenShiftPart[]) {
      const objs = this.caches.get(part)?.objects();
      if (objs === undefined) continue;
      if (part === 'clusterVersion') {
        const cv = objs.find((o) => o.metadata.name === (this.opts.clusterVersion ?? 'version'));
        if (cv) openshift.clusterVersion = cv;
      } else openshift[part] = objs;
    }
    return {
      at: new Date(),
      syncs,
      selected,
      ...(inv ? { inventory: { platform: inv.platform, overlay: inv.overlay, revision: inv.revision } } : {}),
      objects: objectRows(ids, this.live, status?.drift),
      drift: driftRows(
        status?.drift,
        ids,
        (id) => {
          const o = this.live(id);
          return typeof o === 'object' ? o : undefined;
        },
        desired && ((id) => desired.get(id)),
      ),
      openshift,
      problems: [...this.problems.values()],
      ...(desired ? { desiredRevision: desired.revision } : {}),
    };
  }
}

/** What identifies an inventory's tracked kinds and objects (empty without one). */
function inventoryKey(inv: Inventory | undefined): string {
  return inv ? `${inv.platform}/${inv.overlay}/${[...inv.objects].join(',')}` : '';
}
