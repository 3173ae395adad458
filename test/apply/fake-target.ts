import type { ApplyTarget, TargetRef } from '../../src/apply/target.js';
import type { ApiErrorLike } from '../../src/apply/api-error-like.js';
import { idOf, type ObjectId } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';

/** A server error as the engine sees it (status, reason, causes), for fault injection. */
export function apiError(
  status: number,
  reason: string,
  bodyMessage: string,
  causes: ApiErrorLike['causes'] = [],
): Error & ApiErrorLike {
  return Object.assign(new Error(bodyMessage), { status, reason, bodyMessage, causes });
}

/**
 * An in-memory stand-in for the cluster in pure engine tests: records the order of writes and
 * deletes, and lets a test inject failures per object name. Not a model of the apiserver.
 */
export class FakeTarget implements ApplyTarget {
  readonly objects = new Map<ObjectId, K8sObject>();
  readonly log: string[] = [];
  failApply = new Map<string, Error[]>();
  unserved = new Set<string>();

  async apply(obj: K8sObject): Promise<K8sObject> {
    const queue = this.failApply.get(obj.metadata.name);
    const err = queue?.shift();
    if (err) {
      this.log.push(`fail ${obj.kind}/${obj.metadata.name}`);
      throw err;
    }
    this.log.push(`apply ${obj.kind}/${obj.metadata.name}`);
    this.objects.set(idOf(obj), obj);
    return obj;
  }

  async explainWebhook(): Promise<string | undefined> {
    return undefined;
  }

  async releaseManagers(obj: K8sObject, managers: readonly string[]): Promise<void> {
    this.log.push(`release ${obj.kind}/${obj.metadata.name} ${managers.join(',')}`);
  }

  async remove(obj: K8sObject, opts: { propagationPolicy: string }): Promise<void> {
    this.log.push(`delete ${obj.kind}/${obj.metadata.name} ${opts.propagationPolicy}`);
    this.objects.delete(idOf(obj));
  }

  async fetch(refs: readonly TargetRef[]): Promise<Map<ObjectId, K8sObject>> {
    return new Map(refs.filter((r) => this.objects.has(r.id)).map((r) => [r.id, this.objects.get(r.id)!]));
  }

  async list(apiVersion: string, kind: string, namespace: string): Promise<K8sObject[]> {
    return [...this.objects.values()].filter(
      (o) =>
        o.apiVersion === apiVersion && o.kind === kind && (!namespace || o.metadata.namespace === namespace),
    );
  }

  async serves(apiVersion: string, kind: string): Promise<boolean> {
    return !this.unserved.has(`${apiVersion}/${kind}`);
  }
}
