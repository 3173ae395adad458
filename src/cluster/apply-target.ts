import type { ApplyTarget, TargetRef } from '../apply/target.js';
import { k8sObjectSchema } from '../core/cluster-object.js';
import type { K8sObject } from '../core/object.js';
import { ApiError } from './api-error.js';
import type { ObjectId } from '../core/object-id.js';
import type { KubeClient } from './client.js';
import { resourcePath, type Discovery } from './discovery.js';
import { listAll } from './list.js';
import { ClusterObserver } from './observer.js';
import { ssaPatch } from './ssa.js';
import { explainWebhook } from './webhook-explain.js';

/** How many times `releaseManagers` patches an object that keeps moving under it. */
const RELEASE_ATTEMPTS = 5;

/** The apply engine's door to a real cluster (src/apply/target.ts). */
export class ClusterApplyTarget implements ApplyTarget {
  private readonly observer: ClusterObserver;

  constructor(
    private readonly client: KubeClient,
    private readonly discovery: Discovery,
  ) {
    this.observer = new ClusterObserver(client, discovery);
  }

  apply(obj: K8sObject, opts: { force: boolean; fieldManager?: string }): Promise<K8sObject> {
    return ssaPatch(this.client, this.discovery, obj, {
      force: opts.force,
      ...(opts.fieldManager ? { fieldManager: opts.fieldManager } : {}),
    });
  }

  async list(apiVersion: string, kind: string, namespace: string): Promise<K8sObject[]> {
    const info = await this.discovery.tryResolve(apiVersion, kind);
    return info ? listAll(this.client, info, info.namespaced && namespace ? namespace : undefined) : [];
  }

  explainWebhook(webhook: string): Promise<string | undefined> {
    return explainWebhook(this.client, webhook);
  }

  /**
   * Drops `managers`' entries from the object's managedFields with a JSON patch that first tests
   * its resourceVersion. A controller often writes the object between the apply and this patch (a
   * Deployment's status): then the test fails (422, or 409), and the object is read again and the
   * patch retried on what it is now, at most `RELEASE_ATTEMPTS` times in all.
   */
  async releaseManagers(obj: K8sObject, managers: readonly string[]): Promise<void> {
    const info = await this.discovery.resolve(obj.apiVersion, obj.kind);
    const path = resourcePath(info, obj.metadata.namespace, obj.metadata.name);
    let current = obj;
    for (let attempt = 1; ; attempt++) {
      const entries = current.metadata.managedFields ?? [];
      const kept = entries.filter((e) => !managers.includes(e.manager ?? ''));
      if (kept.length === entries.length) return;
      try {
        await this.client.request('PATCH', path, {
          contentType: 'application/json-patch+json',
          body: [
            { op: 'test', path: '/metadata/resourceVersion', value: current.metadata.resourceVersion },
            { op: 'replace', path: '/metadata/managedFields', value: kept },
          ],
        });
        return;
      } catch (err) {
        const moved = err instanceof ApiError && (err.status === 422 || err.status === 409);
        if (!moved || attempt >= RELEASE_ATTEMPTS) throw err;
        current = await this.client.request('GET', path, { schema: k8sObjectSchema });
      }
    }
  }

  async remove(
    obj: K8sObject,
    opts: { propagationPolicy: 'Background' | 'Foreground' | 'Orphan' },
  ): Promise<void> {
    const info = await this.discovery.resolve(obj.apiVersion, obj.kind);
    await this.client.request('DELETE', resourcePath(info, obj.metadata.namespace, obj.metadata.name), {
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: opts.propagationPolicy,
        // Delete exactly the object that was observed, not a namesake created since.
        ...(obj.metadata.uid ? { preconditions: { uid: obj.metadata.uid } } : {}),
      },
    });
  }

  async fetch(refs: readonly TargetRef[]): Promise<Map<ObjectId, K8sObject>> {
    const state = await this.observer.observe(refs);
    const failed = state.failedLists[0];
    if (failed)
      throw new Error(
        `listing ${failed.kind} in ${failed.namespace || 'all namespaces'} failed: ${failed.message}`,
      );
    return state.live;
  }

  async serves(apiVersion: string, kind: string): Promise<boolean> {
    return (await this.discovery.tryResolve(apiVersion, kind)) !== undefined;
  }
}
