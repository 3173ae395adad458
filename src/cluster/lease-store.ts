import { z } from 'zod';
import { objectSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import { isNotFound } from './api-error.js';
import type { KubeClient } from './client.js';

/** `coordination.k8s.io/v1` LeaseSpec: the leader election record client-go keeps. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime (`2006-01-02T15:04:05.000000Z`). */
  acquireTime?: string;
  /** MicroTime; informational only: electors judge expiry by when *they* saw the record change. */
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends K8sObject {
  spec?: LeaseSpec;
}

/** A Lease as the server returns it; the electors read its spec, so its types are checked. */
const leaseSchema: z.ZodType<Lease> = objectSchema.extend({
  spec: z
    .looseObject({
      holderIdentity: z.string().optional(),
      leaseDurationSeconds: z.number().optional(),
      acquireTime: z.string().optional(),
      renewTime: z.string().optional(),
      leaseTransitions: z.number().optional(),
    })
    .optional(),
});

/**
 * Get, create and update one Lease with optimistic concurrency: `update` sends the resourceVersion
 * it read, so a concurrent writer makes it fail with a 409 `Conflict` (an `ApiError`) instead of
 * being overwritten. It does no retrying of its own: the elector decides.
 */
export class LeaseStore {
  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    readonly name: string,
  ) {}

  /** The Lease, or undefined when it does not exist. */
  async get(signal?: AbortSignal): Promise<Lease | undefined> {
    try {
      return await this.client.request('GET', this.path(), { signal, noRetry: true, schema: leaseSchema });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Creates the Lease; a 409 `AlreadyExists` when another elector was first. */
  create(spec: LeaseSpec, signal?: AbortSignal): Promise<Lease> {
    return this.client.request('POST', `/apis/coordination.k8s.io/v1/namespaces/${this.namespace}/leases`, {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.name, namespace: this.namespace },
        spec,
      },
      signal,
      noRetry: true,
      schema: leaseSchema,
    });
  }

  /** Replaces the spec of `current` (a Lease as read, with its resourceVersion); 409 `Conflict` if it moved. */
  update(current: Lease, spec: LeaseSpec, signal?: AbortSignal): Promise<Lease> {
    return this.client.request('PUT', this.path(), {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: this.name,
          namespace: this.namespace,
          resourceVersion: current.metadata.resourceVersion,
          ...(current.metadata.labels ? { labels: current.metadata.labels } : {}),
          ...(current.metadata.annotations ? { annotations: current.metadata.annotations } : {}),
        },
        spec,
      },
      signal,
      noRetry: true,
      schema: leaseSchema,
    });
  }

  private path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${this.namespace}/leases/${this.name}`;
  }
}

/** `metav1.MicroTime` as the apiserver parses it (RFC 3339 with exactly six fractional digits). */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
