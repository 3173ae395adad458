import type { K8sObject } from '../core/object.js';
import { isPlainObject } from '../core/object.js';
import { arrayAt, conditionOf, conditionWith, describeCondition, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/** The version an operator reports for itself (`status.versions[name=operator]`). */
export function operatorVersion(co: K8sObject): string | undefined {
  const entry = arrayAt(statusOf(co), 'versions').find((v) => isPlainObject(v) && v.name === 'operator');
  return isPlainObject(entry) ? stringAt(entry, 'version') : undefined;
}

/**
 * Health of an OpenShift `config.openshift.io/v1` ClusterOperator, from its conditions:
 *
 * - `Unknown` (NoStatus) without conditions, (AvailabilityUnknown) without a definite `Available`;
 * - `Degraded` (OperatorDegraded) when `Degraded` is True, (OperatorUnavailable) when `Available`
 *   is False: the component it manages is down;
 * - `Progressing` (OperatorProgressing) when `Progressing` is True;
 * - `Healthy` (OperatorAvailable) otherwise.
 *
 * The operator's own condition reason and message go into the message. It does not judge
 * `Upgradeable=False` (only minor updates are blocked; the message says so) nor whether the operator
 * runs the cluster's target version: that belongs to the update, see `assessClusterUpdate`.
 */
export function clusterOperatorHealth(obj: K8sObject): HealthVerdict {
  if (arrayAt(statusOf(obj), 'conditions').length === 0) {
    return verdict('Unknown', 'NoStatus', 'the operator has not reported conditions yet');
  }
  const degraded = conditionWith(obj, 'Degraded', 'True');
  if (degraded) return verdict('Degraded', 'OperatorDegraded', describeCondition(degraded));
  const available = conditionOf(obj, 'Available');
  if (available?.status === 'False')
    return verdict('Degraded', 'OperatorUnavailable', describeCondition(available));
  if (available?.status !== 'True') {
    return verdict(
      'Unknown',
      'AvailabilityUnknown',
      available ? describeCondition(available) : 'no Available condition',
    );
  }
  const progressing = conditionWith(obj, 'Progressing', 'True');
  if (progressing) return verdict('Progressing', 'OperatorProgressing', describeCondition(progressing));

  const version = operatorVersion(obj);
  const blocked = conditionWith(obj, 'Upgradeable', 'False');
  const message = [
    version ? `available at ${version}` : 'available',
    blocked ? `not upgradeable to the next minor version (${describeCondition(blocked)})` : undefined,
  ];
  return verdict('Healthy', 'OperatorAvailable', message.filter(Boolean).join('; '));
}
