// What a cycle does with what it observed: skip planning, what to apply, whether to force, whether it
// ended quiet. Pure functions of their inputs (the clock passed in as `now`); the agent acts on them.
import type { ChangeSet } from '../apply/changeset.js';
import { hasCode } from '../core/errors.js';
import type { DriftItem } from '../plan/drift.js';
import type { Plan } from '../plan/plan-result.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { AgentMode, CycleFailure, QuietMark } from './agent-state.js';
import { forceWhereGitUnchanged, hasPendingWork, onlyGitChanges } from './plan-scope.js';

/** How often a full plan runs however quiet the cycles are (`AgentConfig.fullPlanEveryMs`). */
export const FULL_PLAN_EVERY_MS = 600_000;

/**
 * Whether a cycle may skip planning: its revision is the last good one (`isNew` false), the object
 * caches are on (`fingerprint` defined) and show what the last quiet cycle saw, and that cycle is
 * less than `fullPlanEveryMs` old. The plan is a function of git, the watched objects and the
 * inventory (which only Groundwork writes), so it would find nothing to do.
 */
export function canSkipPlan(input: {
  quiet: QuietMark | undefined;
  revision: string;
  isNew: boolean;
  fingerprint: string | undefined;
  now: number;
  /** @default FULL_PLAN_EVERY_MS */
  fullPlanEveryMs?: number;
}): boolean {
  const { quiet } = input;
  return (
    !input.isNew &&
    input.fingerprint !== undefined &&
    quiet !== undefined &&
    quiet.revision === input.revision &&
    quiet.fingerprint === input.fingerprint &&
    input.now - quiet.at < (input.fullPlanEveryMs ?? FULL_PLAN_EVERY_MS)
  );
}

/** What a cycle applies. */
export interface ApplyDecision {
  /** The plan to apply: all of it, or in detect-only mode only what git changed. */
  plan: Plan;
  /** Whether to apply at all: a new revision, drift to correct (self-heal), or hooks with work left. */
  apply: boolean;
  /** Force field-manager conflicts: self-heal correcting drift on the revision already applied. */
  force: boolean;
}

/**
 * Decides what a cycle applies of `plan`. Detect-only applies what git changed since the last good
 * revision (nothing, for the same revision), so drift stays and is reported; self-heal applies the
 * whole plan, forcing conflicts only when correcting (a new revision does not take fields others
 * own in the objects git changed; the others force theirs, `forceWhereGitUnchanged`). A plan with Subscriptions, ClusterVersion or pools is applied on every cycle: their hooks
 * act once per cycle (see `hasPendingWork`). Does not look at whether the apply would write.
 */
export function decideApply(input: {
  mode: AgentMode;
  plan: Plan;
  isNew: boolean;
  candidate: SynthResult;
  /** The last good revision's synth (undefined on the first cycle). */
  lastGood: SynthResult | undefined;
  /** The sync is suspended (`groundwork sync suspend`): nothing is applied, whatever the plan. */
  suspended?: boolean;
}): ApplyDecision {
  const { mode, plan, isNew } = input;
  const selfHeal = mode === 'self-heal';
  if (input.suspended) return { plan, apply: false, force: false };
  return {
    plan: selfHeal
      ? isNew
        ? forceWhereGitUnchanged(plan, input.candidate, input.lastGood)
        : plan
      : onlyGitChanges(plan, input.candidate, isNew ? input.lastGood : input.candidate),
    apply: isNew || (selfHeal && plan.hasChanges) || hasPendingWork(plan),
    force: selfHeal && !isNew,
  };
}

/**
 * Whether a cycle fetches git. A suspended sync that has applied a revision keeps comparing the
 * cluster with that revision (its drift is what the operator's edits did, not what git moved);
 * without one (an agent started while suspended) it fetches, plans and applies nothing.
 */
export function fetchesGit(input: { suspended: boolean; hasLastGood: boolean }): boolean {
  return !(input.suspended && input.hasLastGood);
}

/** Whether drift the watches saw is corrected at once: self-heal, unless suspended. */
export function healsDrift(input: { mode: AgentMode; suspended: boolean }): boolean {
  return input.mode === 'self-heal' && !input.suspended;
}

/** The reason of a cycle whose apply returned `error`: its own for an interruption and an unresolvable dependency. */
export function applyFailure(
  error: Error,
): Extract<CycleFailure, 'Interrupted' | 'ApplyFailed' | 'DependencyUnresolvable'> {
  if (hasCode(error, 'Interrupted')) return 'Interrupted';
  return hasCode(error, 'DependencyUnresolvable') ? 'DependencyUnresolvable' : 'ApplyFailed';
}

/**
 * Splits the drift a cycle found by what its apply wrote (created or configured; `changes`
 * undefined: nothing applied). Written objects are no longer drift; on the same revision they were
 * corrected (self-heal), on a new one git changed them, which is not a correction.
 */
export function splitDrift(input: {
  drift: readonly DriftItem[];
  changes: ChangeSet | undefined;
  isNew: boolean;
}): { written: ReadonlySet<string>; corrected: DriftItem[]; remaining: DriftItem[] } {
  const written = new Set(
    input.changes?.entries
      .filter((e) => e.action === 'created' || e.action === 'configured')
      .map((e) => e.id) ?? [],
  );
  return {
    written,
    corrected: input.isNew ? [] : input.drift.filter((d) => written.has(d.id)),
    remaining: input.drift.filter((d) => !written.has(d.id)),
  };
}

/**
 * The quiet mark a finished cycle leaves, or undefined. Quiet: nothing new from git, nothing to
 * correct, no stage wait pending (an operator pin, a version step, a window: hooks resume on status
 * changes of managed objects, which move the fingerprint), and an observation that saw every list
 * and every kind, with the caches on.
 */
export function quietMark(input: {
  mode: AgentMode;
  isNew: boolean;
  plan: Plan;
  /** The pending waits after this cycle. */
  pending: readonly unknown[];
  /** Lists that failed and kinds not served during the observation. */
  incomplete: boolean;
  revision: string;
  fingerprint: string | undefined;
  now: number;
}): QuietMark | undefined {
  const settled =
    !input.isNew && !(input.mode === 'self-heal' && input.plan.hasChanges) && input.pending.length === 0;
  if (!settled || input.fingerprint === undefined || input.incomplete) return undefined;
  return { revision: input.revision, fingerprint: input.fingerprint, at: input.now };
}
