import { isPlainObject, type Condition, type K8sObject } from '../core/object.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Small readers shared by the health checks. Status is data written by controllers we do not
 * control, so every reader tolerates absent or mistyped fields and returns `undefined` instead.
 */

export type Fields = Record<string, unknown>;

/** `obj[key]` as a plain object; `undefined` when absent or not an object. */
export function objectAt(obj: Fields | undefined, key: string): Fields | undefined {
  const value = obj?.[key];
  return isPlainObject(value) ? value : undefined;
}

/** `obj[key]` when it is a finite number. */
export function numberAt(obj: Fields | undefined, key: string): number | undefined {
  const value = obj?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `obj[key]` when it is a non-empty string. */
export function stringAt(obj: Fields | undefined, key: string): string | undefined {
  const value = obj?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `obj[key]` when it is an array; `[]` otherwise. */
export function arrayAt(obj: Fields | undefined, key: string): unknown[] {
  const value = obj?.[key];
  return Array.isArray(value) ? value : [];
}

/** The object's `status`, when it is a non-empty object. */
export function statusOf(obj: K8sObject): Fields | undefined {
  const status = objectAt(obj, 'status');
  return status && Object.keys(status).length > 0 ? status : undefined;
}

/** The object's `spec`, or an empty object. */
export function specOf(obj: K8sObject): Fields {
  return objectAt(obj, 'spec') ?? {};
}

/** The condition of `type` in `status.conditions`, if any. */
export function conditionOf(obj: K8sObject, type: string): Condition | undefined {
  const found = arrayAt(statusOf(obj), 'conditions').find((c) => isPlainObject(c) && c.type === type);
  return found as Condition | undefined;
}

/** The condition of `type` when its status is exactly `status` (`'True'`, `'False'`, `'Unknown'`). */
export function conditionWith(obj: K8sObject, type: string, status: string): Condition | undefined {
  const condition = conditionOf(obj, type);
  return condition?.status === status ? condition : undefined;
}

/** `reason: message` of a condition, leaving out whichever part is empty. */
export function describeCondition(condition: Condition): string {
  const parts = [condition.reason, condition.message?.trim()].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(': ') : `${condition.type}=${condition.status}`;
}

/** The verdict for a kind whose controller has not written any status yet. */
export function noStatus(obj: K8sObject): HealthVerdict {
  return verdict('Unknown', 'NoStatus', `${obj.kind} has no status yet: its controller has not reported`);
}

/**
 * Progressing when `status.observedGeneration` is behind `metadata.generation`: the status then
 * describes an older spec, so nothing else in it can be trusted (kstatus' first rule).
 */
export function staleGeneration(obj: K8sObject): HealthVerdict | undefined {
  const generation = obj.metadata.generation;
  const observed = numberAt(statusOf(obj), 'observedGeneration');
  if (generation === undefined || observed === undefined || observed >= generation) return undefined;
  return verdict(
    'Progressing',
    'ObservedGenerationOutdated',
    `waiting for the controller to observe generation ${generation} (observed ${observed})`,
  );
}
