import type { ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';

/** A reference the target can look objects up by (apiVersion known for desired objects). */
export interface TargetRef {
  id: ObjectId;
  apiVersion?: string;
  kind: string;
  group: string;
  namespace: string;
}

/**
 * The cluster as the apply engine needs it: the only door to I/O, implemented by
 * src/cluster/apply-target.ts and faked in pure tests.
 */
export interface ApplyTarget {
  /**
   * Server-side apply; rejects with the server's error. Field manager `groundwork` unless given:
   * controllers inside the engine (InstallPlan approval, version steps, pool pauses) use their own,
   * so the platform's next apply neither removes nor fights what they set.
   */
  apply(obj: K8sObject, opts: { force: boolean; fieldManager?: string }): Promise<K8sObject>;
  /**
   * Removes the `managedFields` entries of `managers` from `obj` as read (a JSON patch that tests
   * its resourceVersion), so that they no longer co-own its fields: Groundwork adopting an object
   * created with kubectl releases kubectl's managers, as Flux does, so that a field later removed
   * from git is removed from the cluster. Rejects with the server's error (409: changed since read).
   */
  releaseManagers(obj: K8sObject, managers: readonly string[]): Promise<void>;
  /**
   * Why an admission webhook the server failed calling is down: its configuration, failurePolicy,
   * Service and the workload behind it; undefined when nothing declares it.
   */
  explainWebhook(webhook: string): Promise<string | undefined>;
  /** Deletes an object; resolves when the request is accepted (not when it is gone). */
  remove(obj: K8sObject, opts: { propagationPolicy: 'Background' | 'Foreground' | 'Orphan' }): Promise<void>;
  /** Live objects for refs, read with batched lists. Missing objects are absent from the map. */
  fetch(refs: readonly TargetRef[]): Promise<Map<ObjectId, K8sObject>>;
  /** Every object of a kind in a namespace (`''`: cluster-scoped or all namespaces), by one list. */
  list(apiVersion: string, kind: string, namespace: string): Promise<K8sObject[]>;
  /** True when the server serves `apiVersion`/`kind` (its CRD is Established). */
  serves(apiVersion: string, kind: string): Promise<boolean>;
}
