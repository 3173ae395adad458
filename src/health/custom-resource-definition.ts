import type { K8sObject } from '../core/object.js';
import { conditionOf, conditionWith, describeCondition } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an `apiextensions.k8s.io` CustomResourceDefinition (kstatus `CRDConditions`):
 *
 * - `Degraded` (NamesNotAccepted) when `NamesAccepted` is False: the plural or kind conflicts with
 *   another CRD, and the API will not be served until someone renames one of them;
 * - `Healthy` (Established) when `Established` is True: the API is served and custom resources
 *   of this kind can be created;
 * - `Degraded` (NotEstablished) when `Established` is False for a reason other than `Installing`;
 * - `Progressing` (NotEstablished) otherwise: installing, or before the API server writes status.
 *
 * It does not judge the schema or stored versions: the API server validates those on write.
 */
export function customResourceDefinitionHealth(obj: K8sObject): HealthVerdict {
  const names = conditionWith(obj, 'NamesAccepted', 'False');
  if (names) return verdict('Degraded', 'NamesNotAccepted', describeCondition(names));
  const established = conditionOf(obj, 'Established');
  if (established?.status === 'True') return verdict('Healthy', 'Established', 'the API is served');
  if (established?.status === 'False' && established.reason !== 'Installing')
    return verdict('Degraded', 'NotEstablished', describeCondition(established));
  return verdict(
    'Progressing',
    'NotEstablished',
    established ? describeCondition(established) : 'waiting for the Established condition',
  );
}
