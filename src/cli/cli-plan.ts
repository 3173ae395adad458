import { FIELD_MANAGER } from '../plan/plan.js';
import type { Plan } from '../plan/plan-result.js';
import { forceOutOfBand } from '../plan/out-of-band.js';

/**
 * The plan `groundwork plan` shows and `groundwork apply` runs, from the engine's plan: conflicts
 * that are out-of-band drift (a field git owns that a `kubectl` manager took) are forced, so that
 * both commands say the same and apply restores what `drift` reports. Pure.
 */
export function cliPlan(plan: Plan): Plan {
  return forceOutOfBand(plan, { fieldManager: FIELD_MANAGER });
}
