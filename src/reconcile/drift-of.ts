import type { K8sObject } from '../core/object.js';
import { detectDrift, type DriftItem } from '../plan/drift.js';
import type { Observed } from './observe-and-plan.js';

/** Drift items of an observed plan. */
export function driftOf(observed: Observed): DriftItem[] {
  return detectDrift(observed.plan, observed.observed.listed as ReadonlyMap<string, K8sObject>);
}
