import type { ObjectPolicy } from '../core/annotations.js';
import type { ObjectId, ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import type { FieldDiff } from './field-diff.js';
import type { StageName } from '../core/stages.js';
import type { FailureCode, PruneRefusalCode, SkipCode, WriteReasonCode } from './entry-codes.js';

/**
 * What the engine will do with one object. Closed vocabulary; `PLAN_ACTIONS` is the display order.
 * - `create`: desired, not in the cluster.
 * - `update`: desired and live differ in fields Groundwork manages (see `diff`).
 * - `adopt`: desired and live, but Groundwork never server-side applied it (created with kubectl, say):
 *   applied even when the values agree, so that Groundwork owns its fields (see `diff` for changes).
 * - `unchanged`: desired and live agree, and Groundwork applied it; nothing is sent.
 * - `prune`: in the inventory, no longer desired, still in the cluster.
 * - `skip`: not acted on, with a `reason` (a failed list, a keep annotation, ...).
 */
export type PlanAction = 'create' | 'update' | 'adopt' | 'prune' | 'skip' | 'unchanged';

export const PLAN_ACTIONS: readonly PlanAction[] = [
  'create',
  'update',
  'adopt',
  'prune',
  'skip',
  'unchanged',
];

/** A problem the server reported during the dry-run of an update (the update will fail the same way). */
export interface DryRunProblem {
  code: FailureCode;
  message: string;
  /** For field-manager conflicts: the other managers and the fields. */
  conflicts?: { manager: string; field: string }[];
}

export interface PlanItem {
  id: ObjectId;
  ref: ObjectRef;
  stage: StageName;
  action: PlanAction;
  /** Field-level differences (updates): live → what the apply would produce. Secret values redacted. */
  diff: FieldDiff[];
  /**
   * Why the item is as it is: a skip reason, or for a `create`/`update`: `CrdInThisApply` and
   * `AwaitsOperator` (the kind is not served yet), `Recreate` (an immutable field changed and the
   * object asks to be deleted and re-created).
   */
  reason?: SkipCode | WriteReasonCode;
  message?: string;
  problem?: DryRunProblem;
  /** Construct path that declared it (desired objects). */
  source?: string;
  policy: ObjectPolicy;
  /**
   * The desired object as synthesized (with Secret values: it is what apply sends). Never rendered:
   * text, Markdown and JSON renderings show only the redacted `diff`.
   */
  desired?: K8sObject;
  live?: K8sObject;
  /** A Namespace prune: the objects in it that are not in git, deleted with it (see `withNamespaceContents`). */
  goesWith?: ObjectId[];
}

/** Why pruning is refused, when it is. */
export interface PruneRefusal {
  reason: PruneRefusalCode;
  message: string;
}
