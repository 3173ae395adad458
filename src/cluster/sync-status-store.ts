import { z } from 'zod';
import { objectSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import { SyncStatus } from '../report/sync-status.js';
import { ApiError, isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';

export const PLATFORM_SYNC_API_VERSION = 'groundwork.io/v1alpha1';
const PLATFORM_SYNC_KIND = 'PlatformSync';
/** Field manager of the agent's writes to PlatformSync objects. */
const AGENT_FIELD_MANAGER = 'groundwork-agent';

/** What the agent syncs, mirrored into the PlatformSync spec (see crds/groundwork.io_platformsyncs.yaml). */
export interface PlatformSyncSpec {
  repository: {
    /** Written without user info: credentials in the URL are dropped. */
    url: string;
    /** Exactly one of branch, tag, commit. */
    ref: { branch?: string; tag?: string; commit?: string };
    /** Directory of the platform inside the repository. */
    path?: string;
  };
  overlay: string;
  /** @default 'self-heal' (server default) */
  mode?: 'detect-only' | 'self-heal';
  /** Reconcile interval as a Go duration, e.g. `5m`. */
  interval?: string;
}

/** The spec's fields and types, as the CRD declares them (the CRD also enforces one ref). */
const platformSyncSpecSchema: z.ZodType<PlatformSyncSpec> = z.looseObject({
  repository: z.looseObject({
    url: z.string(),
    ref: z.looseObject({
      branch: z.string().optional(),
      tag: z.string().optional(),
      commit: z.string().optional(),
    }),
    path: z.string().optional(),
  }),
  overlay: z.string(),
  mode: z.enum(['detect-only', 'self-heal']).optional(),
  interval: z.string().optional(),
});

/**
 * A PlatformSync as the server returns it. The status is left as read here: `SyncStatus.parse`
 * validates it (`InvalidSyncStatus`) where it is used.
 */
export const platformSyncSchema = objectSchema.extend({
  spec: platformSyncSpecSchema,
  status: z.unknown().optional(),
});

export interface PlatformSyncObject extends K8sObject {
  spec: PlatformSyncSpec;
  /** Unvalidated: read it through `StoredSync.status`. */
  status?: unknown;
}

/** What `read` and `ensure` return: the object, its generation and its validated status (if any). */
interface StoredSync {
  object: PlatformSyncObject;
  generation: number;
  status: SyncStatus | undefined;
}

interface SyncStatusStoreOptions {
  /** Namespace of the PlatformSync objects (the agent's own namespace). */
  namespace: string;
  /** @default 'groundwork-agent' */
  fieldManager?: string;
  /** Labels applied with the spec. */
  labels?: Record<string, string>;
}

/** `<platform>-<overlay>` as a DNS label: `derivedName` (src/core/object-name.ts), the one derivation. */
export { platformSyncName } from '../core/object-name.js';

/**
 * Reads and writes PlatformSync objects. The object is created (or its spec updated) with
 * server-side apply; the status goes through a PUT of the status subresource with the object's
 * resourceVersion (a conflict re-reads and retries). The store remembers the last object it saw per
 * name, so writing a status equal to the stored one makes no request at all: a no-op reconcile costs
 * zero writes. It does not notice outside edits until `read` is called or a write conflicts.
 */
export class SyncStatusStore {
  private readonly known = new Map<string, StoredSync>();

  constructor(
    private readonly client: KubeClient,
    private readonly opts: SyncStatusStoreOptions,
  ) {}

  /** The PlatformSync `name`, or undefined when it does not exist. Refreshes the store's copy. */
  async read(name: string): Promise<StoredSync | undefined> {
    try {
      const obj = stored(await this.client.request('GET', this.path(name), { schema: platformSyncSchema }));
      this.known.set(name, obj);
      return obj;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.known.delete(name);
      return undefined;
    }
  }

  /**
   * Makes sure the object exists with `spec` (server-side apply when it is missing or its spec
   * differs) and returns it; its generation is the `observedGeneration` to build statuses with.
   * No request when the store's copy already has that spec.
   */
  async ensure(name: string, spec: PlatformSyncSpec): Promise<StoredSync> {
    return this.ensureObject(name, sanitize(spec));
  }

  /**
   * Writes `status` unless the stored one is equal (`'unchanged'`, no write). Creates the object
   * with `spec` first when it is missing.
   */
  async write(name: string, spec: PlatformSyncSpec, status: SyncStatus): Promise<'unchanged' | 'updated'> {
    const safe = sanitize(spec);
    let current = await this.ensureObject(name, safe);
    for (let attempt = 1; ; attempt++) {
      if (status.equals(current.status)) return 'unchanged';
      try {
        const updated = await this.client.request('PUT', `${this.path(name)}/status`, {
          body: {
            apiVersion: PLATFORM_SYNC_API_VERSION,
            kind: PLATFORM_SYNC_KIND,
            metadata: {
              name,
              namespace: this.opts.namespace,
              resourceVersion: current.object.metadata.resourceVersion,
            },
            spec: current.object.spec,
            status: status.toJSON(),
          },
          schema: platformSyncSchema,
        });
        this.known.set(name, stored(updated));
        return 'updated';
      } catch (err) {
        // Someone else wrote the object (or deleted it) since we read it: re-read and try again.
        const retriable = err instanceof ApiError && (err.reason === 'Conflict' || isNotFound(err));
        if (!retriable || attempt >= 3) throw err;
        this.known.delete(name);
        current = (await this.read(name)) ?? (await this.ensureObject(name, safe));
      }
    }
  }

  private async ensureObject(name: string, spec: PlatformSyncSpec): Promise<StoredSync> {
    let current = this.known.get(name) ?? (await this.read(name));
    if (!current || !covers(current.object.spec, spec) || !sameRef(current.object.spec, spec)) {
      const applied = await this.client.request('PATCH', this.path(name), {
        body: {
          apiVersion: PLATFORM_SYNC_API_VERSION,
          kind: PLATFORM_SYNC_KIND,
          metadata: {
            name,
            namespace: this.opts.namespace,
            ...(this.opts.labels ? { labels: this.opts.labels } : {}),
          },
          spec,
        },
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: this.opts.fieldManager ?? AGENT_FIELD_MANAGER, force: true },
        schema: platformSyncSchema,
      });
      current = stored(applied);
      this.known.set(name, current);
    }
    return current;
  }

  private path(name: string): string {
    return `/apis/groundwork.io/v1alpha1/namespaces/${this.opts.namespace}/platformsyncs/${name}`;
  }
}

function stored(obj: PlatformSyncObject): StoredSync {
  return {
    object: obj,
    generation: obj.metadata.generation ?? 0,
    status: obj.status ? SyncStatus.parse(obj.status) : undefined,
  };
}

/** The spec without credentials in the repository URL and without undefined fields. */
function sanitize(spec: PlatformSyncSpec): PlatformSyncSpec {
  let url = spec.repository.url;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    url = parsed.toString();
  } catch {
    // scp-like `git@host:org/repo.git`: the user is not a secret; anything else is kept as given.
  }
  // The JSON round trip drops undefined fields; the schema types the copy (no cast).
  return platformSyncSpecSchema.parse(
    JSON.parse(JSON.stringify({ ...spec, repository: { ...spec.repository, url } })),
  );
}

/** Ref is one of branch, tag, commit: a key that is no longer wanted must go too. */
function sameRef(live: PlatformSyncSpec | undefined, want: PlatformSyncSpec): boolean {
  const keys = (ref: object | undefined) =>
    Object.keys(ref ?? {})
      .sort()
      .join(',');
  return keys(live?.repository?.ref) === keys(want.repository.ref);
}

/** True when every field of `want` has the same value in `live` (server defaults may add more). */
function covers(live: unknown, want: unknown): boolean {
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    if (!live || typeof live !== 'object') return false;
    return Object.entries(want).every(([k, v]) => covers((live as Record<string, unknown>)[k], v));
  }
  return JSON.stringify(live) === JSON.stringify(want);
}
