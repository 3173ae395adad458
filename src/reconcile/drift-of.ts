import { compareDrift, detectDrift, type DriftItem } from '../plan/drift.js';
import { unmanagedDrift, type UnmanagedReport } from '../plan/unmanaged.js';
import type { Observed } from './observe-and-plan.js';

/**
 * Drift items of an observed plan: what Groundwork applies, missing or modified, plus the
 * unmanaged objects of `unmanaged` as `extra` when the team asked to fail on them (`failOn`).
 */
export function driftOf(observed: Observed, unmanaged?: UnmanagedReport): DriftItem[] {
  const extra = unmanagedDrift(unmanaged);
  const drift = detectDrift(observed.plan);
  return extra.length ? [...drift, ...extra].sort(compareDrift) : drift;
}
