import type { K8sObject } from '../core/object.js';
import { conditionWith, describeCondition, numberAt, specOf, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a batch/v1 Job (kstatus `jobConditions`), in this order:
 *
 * - `Healthy` (Complete) when `Complete` is True;
 * - `Degraded` (JobFailed) when `Failed` is True (backoff limit or deadline reached);
 * - `Suspended` (Suspended) when `spec.suspend` is set and `Suspended` is True;
 * - `Progressing` (NotStarted) until the controller sets `status.startTime` (so before it writes any
 *   status, as in kstatus);
 * - `Healthy` (Running) once started: as in kstatus, a running Job is ready; waiting for its
 *   completion is a question for whoever needs its result.
 */
export function jobHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  const counts = `${numberAt(status, 'succeeded') ?? 0} succeeded, ${numberAt(status, 'active') ?? 0} active, ${numberAt(status, 'failed') ?? 0} failed`;
  const complete = conditionWith(obj, 'Complete', 'True');
  if (complete) return verdict('Healthy', 'Complete', `the job completed (${counts})`);
  const failed = conditionWith(obj, 'Failed', 'True');
  if (failed) return verdict('Degraded', 'JobFailed', `${describeCondition(failed)} (${counts})`);
  if (specOf(obj).suspend === true && conditionWith(obj, 'Suspended', 'True')) {
    return verdict('Suspended', 'Suspended', 'the job is suspended (spec.suspend)');
  }
  if (!stringAt(status, 'startTime')) {
    return verdict('Progressing', 'NotStarted', 'waiting for the Job controller to start the job');
  }
  return verdict('Healthy', 'Running', `the job is running (${counts})`);
}
