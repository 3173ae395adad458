import { isValidId, type ObjectId } from '../core/object-id.js';
import type { Plan } from '../plan/plan-result.js';
import type { PlanItem } from '../plan/types.js';
import type { ChangeSet } from './changeset.js';

/**
 * Which ids an apply records in the inventory, before and after it writes (as cli-utils' inventory
 * add and set tasks). Pure. Only valid object ids are ever recorded (`isValidId`): an object whose
 * name the server refuses never reaches the inventory, so it cannot break a later read.
 */

/**
 * Recorded before anything is written, so that an apply that dies half-way still knows every
 * object it may have created: the previous inventory plus every desired object it will create or
 * update. Left out: objects plan knows cannot be sent, and create-only objects (recorded before
 * they exist, an interrupted create would read as "created once, since deleted"; one created
 * before a crash is found, and recorded, by the next apply).
 */
export function recordBeforeWrite(previous: ReadonlySet<ObjectId>, plan: Plan): ObjectId[] {
  const writing = plan.items.filter(
    (i) =>
      (i.action === 'create' || i.action === 'update' || i.action === 'adopt') &&
      !isUnsendable(i) &&
      !i.policy.createOnly,
  );
  return valid([...previous, ...writing.map((i) => i.id)]);
}

/**
 * Recorded when the apply ends, finished or stopped by a failure: the previous inventory minus
 * what was deleted and what was given up (`KeepAnnotation`, `NotOwned`), plus every desired object
 * this apply created, configured or found unchanged, and create-only objects that exist. An object
 * that failed or was never reached is recorded only if it already was.
 */
export function recordAfterApply(
  previous: ReadonlySet<ObjectId>,
  plan: Plan,
  changes: ChangeSet,
  deleted: ReadonlySet<ObjectId>,
): ObjectId[] {
  const givenUp = new Set(
    plan.items.filter((i) => i.reason === 'KeepAnnotation' || i.reason === 'NotOwned').map((i) => i.id),
  );
  const applied = new Set(changes.applied);
  const existing = plan.items.filter(
    (i) => i.desired && (applied.has(i.id) || (i.reason === 'CreateOnly' && i.live !== undefined)),
  );
  return valid([
    ...[...previous].filter((id) => !deleted.has(id) && !givenUp.has(id)),
    ...existing.map((i) => i.id),
  ]);
}

/**
 * Plan items that cannot be written as they are (no namespace where one is needed, a kind nothing
 * serves, a create into a Namespace being deleted).
 */
export function isUnsendable(item: PlanItem): boolean {
  return (
    item.problem?.code === 'NamespaceMissing' ||
    item.problem?.code === 'KindNotServed' ||
    item.problem?.code === 'NamespaceTerminating'
  );
}

function valid(ids: ObjectId[]): ObjectId[] {
  return [...new Set(ids)].filter(isValidId);
}
