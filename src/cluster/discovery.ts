import { GroundworkError, hasCode } from '../core/errors.js';
import { z } from 'zod';
import type { KubeClient } from './client.js';
import { pathSegment } from './request-path.js';

/** What the apiserver serves for one kind. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  /** Plural resource name used in URLs, e.g. `subscriptions`. */
  resource: string;
  namespaced: boolean;
  verbs: string[];
}

/**
 * An aggregated discovery document (`APIGroupDiscoveryList`, apidiscovery.k8s.io v2 or v2beta1), as
 * far as the table reads it. Another `kind` (an old server's plain `APIVersions`) passes, so that it
 * can be refused by name; lists may be null (Go nil slices).
 */
const discoverySchema = z.looseObject({
  kind: z.string().optional(),
  items: z
    .array(
      z.looseObject({
        metadata: z.looseObject({ name: z.string().optional() }),
        versions: z
          .array(
            z.looseObject({
              version: z.string(),
              /** `Stale` when an aggregated APIService could not be reached: `resources` is then absent. */
              freshness: z.string().optional(),
              resources: z
                .array(
                  z.looseObject({
                    resource: z.string(),
                    responseKind: z.looseObject({ kind: z.string() }),
                    scope: z.string(),
                    verbs: z.array(z.string()).nullish(),
                  }),
                )
                .nullish(),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
});

// v2 is GA since Kubernetes 1.30; v2beta1 (same shape) serves 1.27-1.29, i.e. OpenShift 4.14-4.16.
const AGGREGATED = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

/**
 * Maps apiVersion + kind to REST paths using the apiserver's aggregated discovery (two requests
 * for the whole server). The table is cached; a miss refreshes it once, so kinds from a CRD that
 * was just established are found.
 */
export class Discovery {
  private table = new Map<string, ResourceInfo>();
  private preferred = new Map<string, ResourceInfo>();
  private loadedAt = 0;
  private stale = new Set<string>();

  constructor(private readonly client: KubeClient) {}

  /** Looks up a kind; throws `UnknownKind` when the server does not serve it even after a refresh. */
  async resolve(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const key = `${apiVersion}/${kind}`;
    let info = this.table.get(key);
    if (!info && Date.now() - this.loadedAt > 250) {
      await this.refresh();
      info = this.table.get(key);
    }
    if (!info && this.stale.has(apiVersion)) {
      throw new GroundworkError({
        code: 'GroupUnavailable',
        subject: `${kind} (${apiVersion})`,
        message: 'the server lists this API version but cannot serve it now (discovery says Stale)',
        fix: `check its APIService: kubectl get apiservice ${apiServiceName(apiVersion)}`,
      });
    }
    if (!info) {
      throw new GroundworkError({
        code: 'UnknownKind',
        subject: `${kind} (${apiVersion})`,
        message: 'the server does not serve this kind',
        fix: 'install its CustomResourceDefinition first, or check apiVersion and kind',
      });
    }
    return info;
  }

  /** Same as `resolve`, but undefined instead of an error for unknown kinds. */
  async tryResolve(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    try {
      return await this.resolve(apiVersion, kind);
    } catch (err) {
      if (hasCode(err, 'UnknownKind')) return undefined;
      throw err;
    }
  }

  /**
   * The preferred served version of a group and kind (inventory ids carry no version).
   * Undefined when the server does not serve the kind (e.g. its CRD was deleted); throws
   * `GroupUnavailable` when its group is listed but Stale.
   */
  async resolveGroupKind(group: string, kind: string): Promise<ResourceInfo | undefined> {
    const find = () => this.preferred.get(`${group}/${kind}`);
    if (!find() && Date.now() - this.loadedAt > 250) await this.refresh();
    const found = find();
    const staleVersion = [...this.stale].find((v) => group !== '' && v.startsWith(`${group}/`));
    if (!found && staleVersion) {
      // Not "gone": the group exists but cannot be read now, so nothing of it may be pruned on a guess.
      throw new GroundworkError({
        code: 'GroupUnavailable',
        subject: `${kind} (${group})`,
        message: 'the server lists this API group but cannot serve it now (discovery says Stale)',
        fix: `check its APIService: kubectl get apiservice ${apiServiceName(staleVersion)}`,
      });
    }
    return found;
  }

  /** Every kind the server serves, after a fresh read. */
  async all(): Promise<ResourceInfo[]> {
    await this.refresh();
    return [...this.table.values()];
  }

  /**
   * API versions that discovery listed as Stale on the last read (an aggregated APIService that is
   * unavailable, e.g. metrics-server with no pod). They are skipped, as kubectl skips them; only a
   * lookup of a kind in one of them fails (`GroupUnavailable`). Callers warn about them.
   */
  unavailable(): readonly string[] {
    return [...this.stale].sort();
  }

  /** Re-reads discovery from the server. Stale or empty group versions are skipped, never fatal. */
  async refresh(): Promise<void> {
    const table = new Map<string, ResourceInfo>();
    const preferred = new Map<string, ResourceInfo>();
    const stale = new Set<string>();
    for (const path of ['/api', '/apis']) {
      const doc = await this.client.request('GET', path, {
        headers: { Accept: AGGREGATED },
        schema: discoverySchema,
      });
      if (doc.kind !== 'APIGroupDiscoveryList') {
        throw new GroundworkError({
          code: 'DiscoveryUnsupported',
          subject: path,
          message: 'the server does not offer aggregated discovery (apidiscovery.k8s.io v2 or v2beta1)',
          fix: 'use Kubernetes 1.27+ (OpenShift 4.14+)',
        });
      }
      for (const group of doc.items ?? []) {
        const groupName = group.metadata.name ?? '';
        for (const v of group.versions ?? []) {
          const apiVersion = groupName ? `${groupName}/${v.version}` : v.version;
          if (v.freshness === 'Stale' || !Array.isArray(v.resources)) {
            stale.add(apiVersion);
            continue;
          }
          for (const r of v.resources) {
            const info: ResourceInfo = {
              group: groupName,
              version: v.version,
              kind: r.responseKind.kind,
              resource: r.resource,
              namespaced: r.scope === 'Namespaced',
              verbs: r.verbs ?? [],
            };
            table.set(`${apiVersion}/${r.responseKind.kind}`, info);
            // Versions come in preference order: the first one seen is the preferred one.
            if (!preferred.has(`${groupName}/${info.kind}`)) preferred.set(`${groupName}/${info.kind}`, info);
          }
        }
      }
    }
    this.table = table;
    this.preferred = preferred;
    this.stale = stale;
    this.loadedAt = Date.now();
  }
}

/** `v1beta1.metrics.k8s.io` for `metrics.k8s.io/v1beta1`: the APIService's name. */
function apiServiceName(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return group ? `${version}.${group}` : version!;
}

/**
 * REST path of a collection or an object: `/apis/<group>/<version>/namespaces/<ns>/<resource>[/<name>]`.
 * Takes only valid names (`pathSegment`: the namespace a DNS-1123 label, the name at least a path
 * segment); throws `InvalidObjectName` for `..`, `/`, `%` and the like rather than build a path
 * that names another resource.
 */
export function resourcePath(info: ResourceInfo, namespace?: string, name?: string): string {
  const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const ns =
    info.namespaced && namespace ? `/namespaces/${pathSegment(namespace, 'namespace', 'dns-label')}` : '';
  return `${base}${ns}/${info.resource}${name !== undefined ? `/${pathSegment(name, 'name', 'path-segment')}` : ''}`;
}
