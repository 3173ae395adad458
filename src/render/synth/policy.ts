import type { ApiObject } from 'cdk8s';
import { ANNOTATIONS } from '../../core/annotations.js';

/** How the engine treats one object; every field optional. */
export interface ObjectPolicyProps {
  /** JSON pointers whose differences plan and drift ignore (e.g. `/spec/replicas` scaled by an HPA). */
  readonly ignoreDifferences?: readonly string[];
  /** `keep`: never prune this object, even after it is removed from the platform. */
  readonly prune?: 'keep';
  /** `force`: take field ownership on a server-side apply conflict instead of reporting it. */
  readonly conflicts?: 'force';
  /** `recreate`: delete and re-create the object when a change hits an immutable field. */
  readonly onImmutable?: 'recreate';
  /**
   * `create-only`: create once, never update, never re-create after it was deleted (a Job with
   * `ttlSecondsAfterFinished`). Rename the object to run it again.
   */
  readonly apply?: 'create-only';
}

/**
 * Attaches engine policy to an object as `groundwork.io/*` annotations.
 *
 * @example
 * withPolicy(new ApiObject(platform, 'web', {...}), { ignoreDifferences: ['/spec/replicas'], prune: 'keep' });
 */
export function withPolicy<T extends ApiObject>(obj: T, policy: ObjectPolicyProps): T {
  if (policy.ignoreDifferences?.length) {
    obj.metadata.addAnnotation(
      ANNOTATIONS.ignoreDifferences,
      JSON.stringify([...policy.ignoreDifferences].sort()),
    );
  }
  if (policy.prune) obj.metadata.addAnnotation(ANNOTATIONS.prune, policy.prune);
  if (policy.conflicts) obj.metadata.addAnnotation(ANNOTATIONS.conflicts, policy.conflicts);
  if (policy.onImmutable) obj.metadata.addAnnotation(ANNOTATIONS.immutable, policy.onImmutable);
  if (policy.apply) obj.metadata.addAnnotation(ANNOTATIONS.apply, policy.apply);
  return obj;
}
