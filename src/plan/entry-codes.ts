import { isKubernetesReason, KUBERNETES_REASONS } from '../core/error-codes.js';

// The codes one object carries in a plan (a skip reason, a create's or update's reason, a dry-run
// problem) and in a change set (why it was skipped or failed). A closed list, documented in
// docs/agent-status.md "Per-object codes" (test/plan/entry-codes.test.ts keeps the two equal):
// `groundwork plan`/`apply` print them, and the JSON documents, the dashboard and the agent's
// events carry them.

/** Why an object is skipped (plan `skip`, change set `skipped`). */
export const SKIP_CODES = [
  'ListFailed',
  'KeepAnnotation',
  'NotCreatedByGroundwork',
  /** A Namespace left git while objects git still declares live in it: pruning it would delete them. */
  'NamespaceInUse',
  /** A CRD left git while custom resources of its kind exist that this apply does not prune. */
  'CrdInUse',
  /** `groundwork.io/apply: create-only`: exists (never updated), or was created once and is gone. */
  'CreateOnly',
  /** A desired Namespace being deleted (a finalizer holds it): not applied, and nothing is created in it. */
  'NamespaceTerminating',
  /** In the inventory but not Groundwork's (see src/plan/ownership.ts): never pruned, dropped from the inventory. */
  'NotOwned',
  /** Its kind is not served yet (an operator's CRD): applied on a later run. */
  'AwaitsOperator',
  /** A chart hook helm would not run now: upgrade-only on the first install or without a change, install-only later. */
  'HookPhase',
] as const;

/** Why every prune candidate is kept (`Plan.pruneRefusal`): the prune guard refused. */
export const PRUNE_REFUSAL_CODES = ['NoDesiredObjects', 'TooManyPrunes', 'ObservationIncomplete'] as const;

/** Why a create or update is as it is (plan `reason`): `CrdInThisApply`, `AwaitsOperator`, `Recreate`. */
export const WRITE_REASON_CODES = ['CrdInThisApply', 'AwaitsOperator', 'Recreate'] as const;

/**
 * Why a write (or its dry-run) failed: an apiserver reason (`KUBERNETES_REASONS`), a field
 * manager conflict or an immutable field as Groundwork names them, a problem plan found before
 * sending (`NamespaceMissing`, `KindNotServed`, `NamespaceTerminating`), a server reason outside
 * Kubernetes' list (`ApiRequestFailed`), or no server answer at all (`Error`).
 */
export const FAILURE_CODES = [
  ...KUBERNETES_REASONS,
  'Immutable',
  'NamespaceMissing',
  'KindNotServed',
  'NamespaceTerminating',
  'ApiRequestFailed',
  'Error',
] as const;

export type SkipCode = (typeof SKIP_CODES)[number];
export type PruneRefusalCode = (typeof PRUNE_REFUSAL_CODES)[number];
export type WriteReasonCode = (typeof WRITE_REASON_CODES)[number];
export type FailureCode = (typeof FAILURE_CODES)[number];

/** Every code one object can carry in a plan or a change set. */
export type EntryCode = SkipCode | PruneRefusalCode | WriteReasonCode | FailureCode;

/** Every entry code, once each. */
export const ENTRY_CODES: readonly EntryCode[] = [
  ...new Set<EntryCode>([...SKIP_CODES, ...PRUNE_REFUSAL_CODES, ...WRITE_REASON_CODES, ...FAILURE_CODES]),
];

/** An apiserver Status `reason` as a failure code: itself when Kubernetes lists it, else `ApiRequestFailed`. */
export function failureCodeOf(reason: string): FailureCode {
  return isKubernetesReason(reason) ? reason : 'ApiRequestFailed';
}
