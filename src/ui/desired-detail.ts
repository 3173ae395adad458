import type { ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { desiredDiff } from '../plan/desired-diff.js';
import { FIELD_MANAGER } from '../plan/plan.js';
import type { DesiredObjects } from './desired-objects.js';
import type { DesiredDetail } from './snapshot.js';

/**
 * The object page's view of git: the desired object of `desired`'s revision (Secret values already
 * keyed hashes) and `desiredDiff` from `live` to it (the planner's diff over the fields git sets, as
 * Groundwork's field manager applies them). `live` must be redacted as the desired objects are
 * (`redactSecret`). Undefined without desired objects (`groundwork ui` outside the agent); an empty
 * diff when the cluster or the revision lacks the object. Pure; copies nothing but the diff.
 */
export function desiredDetail(
  desired: DesiredObjects | undefined,
  id: ObjectId,
  live: K8sObject | undefined,
): DesiredDetail | undefined {
  if (!desired) return undefined;
  const object = desired.get(id);
  return {
    revision: desired.revision,
    object,
    diff: object && live ? desiredDiff(object, live, { manager: FIELD_MANAGER }) : [],
  };
}
