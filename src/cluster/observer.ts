import pLimit from 'p-limit';
import { readDefinedKind } from '../core/crd-kind.js';
import { idOf, parseId, type ObjectId } from '../core/object-id.js';
import { splitApiVersion, type K8sObject } from '../core/object.js';
import type { DryRunProblem } from '../plan/types.js';
import { failureCodeOf } from '../plan/entry-codes.js';
import { ApiError } from './api-error.js';
import type { KubeClient } from './client.js';
import type { Discovery, ResourceInfo } from './discovery.js';
import { listAll } from './list.js';
import { ssaPatch } from './ssa.js';

/** What `observe` returns: live objects, every object it listed, and what it could not see. */
export interface ObservedState {
  /** Live objects among the requested ids. */
  live: Map<ObjectId, K8sObject>;
  /** Everything the lists returned (for drift's "unexpected objects in managed namespaces"). */
  listed: Map<ObjectId, K8sObject>;
  failedLists: { apiVersion: string; kind: string; namespace: string; message: string }[];
  unknownKinds: Set<string>;
  /** `apiVersion/kind` of the wanted kinds the server serves as namespaced (discovery's scope). */
  namespacedKinds: Set<string>;
}

/** An object to look up: full apiVersion known (desired) or only group/kind (inventory ids). */
type Wanted = { id: ObjectId; apiVersion?: string; kind: string; group: string; namespace: string };

interface ObserverOptions {
  /** Parallel list requests. @default 8 */
  listConcurrency?: number;
  /** Parallel dry-run requests. @default 16 */
  dryRunConcurrency?: number;
  /**
   * Watch-fed caches (the agent's): a kind (in a namespace) with a healthy cache is read from it,
   * without a LIST.
   */
  cache?: {
    lookup(info: ResourceInfo, namespace?: string): { objects(namespace?: string): K8sObject[] } | undefined;
  };
}

/**
 * Reads live state in batches: one paginated LIST per kind and namespace (never a GET per
 * object), and server-side dry-run applies for the objects plan asks about.
 */
export class ClusterObserver {
  constructor(
    private readonly client: KubeClient,
    private readonly discovery: Discovery,
    private readonly opts: ObserverOptions = {},
  ) {}

  /** Wanted refs for desired objects and inventory ids. */
  static wanted(desired: readonly K8sObject[], inventory: Iterable<ObjectId> = []): Wanted[] {
    const out = new Map<ObjectId, Wanted>();
    for (const o of desired) {
      out.set(idOf(o), {
        id: idOf(o),
        apiVersion: o.apiVersion,
        kind: o.kind,
        group: splitApiVersion(o.apiVersion).group,
        namespace: o.metadata.namespace ?? '',
      });
    }
    for (const id of inventory) {
      if (out.has(id)) continue;
      const r = parseId(id);
      out.set(id, { id, kind: r.kind, group: r.group, namespace: r.namespace });
    }
    return [...out.values()];
  }

  /** Lists what is needed to see every wanted object. A failed list is recorded, never thrown. */
  async observe(wanted: readonly Wanted[]): Promise<ObservedState> {
    const state: ObservedState = {
      live: new Map(),
      listed: new Map(),
      failedLists: [],
      unknownKinds: new Set(),
      namespacedKinds: new Set(),
    };
    const groups = new Map<string, { info: ResourceInfo; namespace: string; apiVersion: string }>();
    for (const w of wanted) {
      const info = w.apiVersion
        ? await this.discovery.tryResolve(w.apiVersion, w.kind)
        : await this.discovery.resolveGroupKind(w.group, w.kind);
      if (!info) {
        // A kind the server does not serve has no objects: desired ones wait for their CRD.
        if (w.apiVersion) state.unknownKinds.add(`${w.apiVersion}/${w.kind}`);
        continue;
      }
      const namespace = info.namespaced ? w.namespace : '';
      const apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
      if (info.namespaced && w.apiVersion) state.namespacedKinds.add(`${w.apiVersion}/${w.kind}`);
      groups.set(`${apiVersion}|${info.kind}|${namespace}`, { info, namespace, apiVersion });
    }
    const limit = pLimit(this.opts.listConcurrency ?? 8);
    await Promise.all(
      [...groups.values()].map((g) =>
        limit(async () => {
          const cached = this.opts.cache?.lookup(g.info, g.namespace || undefined);
          if (cached) {
            for (const obj of cached.objects(g.namespace || undefined)) state.listed.set(idOf(obj), obj);
            return;
          }
          try {
            for (const obj of await listAll(this.client, g.info, g.namespace || undefined))
              state.listed.set(idOf(obj), obj);
          } catch (err) {
            if (err instanceof ApiError && err.status === 404 && g.namespace) return; // namespace does not exist yet: nothing in it
            state.failedLists.push({
              apiVersion: g.apiVersion,
              kind: g.info.kind,
              namespace: g.namespace,
              message: err instanceof Error ? err.message : String(err),
            });
          }
        }),
      ),
    );
    for (const w of wanted) {
      const obj = state.listed.get(w.id);
      if (obj) state.live.set(w.id, obj);
    }
    return state;
  }

  /**
   * The ids of the live custom resources of each given CRD (all namespaces), for the prune guard
   * that keeps a CRD while objects of its kind exist. A CRD whose kind is not served maps to none;
   * a failed list throws (nothing may be pruned on a guess).
   */
  async customResources(crds: readonly K8sObject[]): Promise<Map<ObjectId, ObjectId[]>> {
    const out = new Map<ObjectId, ObjectId[]>();
    for (const crd of crds) {
      const { group, kind } = readDefinedKind(crd);
      const info = await this.discovery.resolveGroupKind(group, kind);
      out.set(idOf(crd), info ? (await listAll(this.client, info, undefined)).map(idOf) : []);
    }
    return out;
  }

  /**
   * Server-side dry-run applies (field manager `groundwork`): what each object would become.
   * Failures are returned as problems (conflicts with the other managers and fields), not thrown.
   */
  async dryRun(
    objects: readonly { id: ObjectId; body: K8sObject; force: boolean }[],
  ): Promise<Map<ObjectId, K8sObject | DryRunProblem>> {
    const limit = pLimit(this.opts.dryRunConcurrency ?? 16);
    const out = new Map<ObjectId, K8sObject | DryRunProblem>();
    await Promise.all(
      objects.map((o) =>
        limit(async () => {
          try {
            out.set(
              o.id,
              await ssaPatch(this.client, this.discovery, o.body, { force: o.force, dryRun: true }),
            );
          } catch (err) {
            out.set(o.id, toProblem(err));
          }
        }),
      ),
    );
    return out;
  }
}

/** A server error as a plan problem; conflicts keep the other managers and their fields. */
function toProblem(err: unknown): DryRunProblem {
  if (err instanceof ApiError) {
    const conflicts =
      err.reason === 'Conflict'
        ? err.causes.map((c) => ({
            manager: /conflict with "([^"]+)"/.exec(c.message ?? '')?.[1] ?? '(unknown)',
            field: c.field ?? '',
          }))
        : [];
    return {
      code: failureCodeOf(err.reason),
      message: err.body?.message ?? err.message,
      ...(conflicts.length ? { conflicts } : {}),
    };
  }
  return { code: 'Error', message: err instanceof Error ? err.message : String(err) };
}
