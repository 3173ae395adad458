import type { StageName } from '../core/stages.js';
import type { PlanItem } from '../plan/types.js';
import type { ApplyTarget } from './target.js';
import type { WaitCheck } from './wait.js';

/**
 * Extra behaviour per stage, plugged in by domain modules (OLM approvals, pool windows, version
 * steps). Its own module so that the domains get the hook types without importing the engine;
 * the list of hooks is put together in `src/reconcile/domains.ts`, never by `applyPlan`.
 */
export interface StageHook {
  /**
   * Runs for every hooked stage before anything is written (not even the inventory). A returned
   * message refuses the whole apply: an invalid version target or an unreachable pin is a broken
   * desired state, like a validation error.
   */
  preflight?: (ctx: StageContext) => Promise<string | undefined>;
  /** Before the stage's objects are written. */
  beforeApply?: (ctx: StageContext) => Promise<void>;
  /** Runs on every poll of the stage's wait (e.g. approve the next InstallPlan). */
  duringWait?: (ctx: StageContext) => Promise<void>;
  /** Replaces the stage's default wait check. */
  check?: (ctx: StageContext) => Promise<WaitCheck>;
}

/** What a hook sees of the stage it runs for. */
export interface StageContext {
  stage: StageName;
  items: readonly PlanItem[];
  target: ApplyTarget;
  /** False when the caller does not wait for health (the agent): hooks act once and report pending. */
  wait: boolean;
  /** Tells the user something about the stage (which pools will reboot, a plan held for approval). */
  notice: (message: string) => void;
}

/** The hooks of one apply, by the stage they run for. */
export type StageHooks = Partial<Record<StageName, StageHook>>;
