import type { ApplyTarget, TargetRef } from '../apply/target.js';
import type { K8sObject } from '../core/object.js';
import type { ObjectId } from '../core/object-id.js';
import type { KubeClient } from './client.js';
import { resourcePath, type Discovery } from './discovery.js';
import { listAll } from './list.js';
import { ClusterObserver } from './observer.js';
import { ssaPatch } from './ssa.js';
import { explainWebhook } from './webhook-explain.js';

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

  async releaseManagers(obj: K8sObject, managers: readonly string[]): Promise<void> {
    const info = await this.discovery.resolve(obj.apiVersion, obj.kind);
    const kept = (obj.metadata.managedFields ?? []).filter((e) => !managers.includes(e.manager ?? ''));
    await this.client.request('PATCH', resourcePath(info, obj.metadata.namespace, obj.metadata.name), {
      contentType: 'application/json-patch+json',
      body: [
        { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: kept },
      ],
    });
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
