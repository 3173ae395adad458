import type { K8sObject } from '../core/object.js';
import { specOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of a core/v1 Service (kstatus `serviceConditions`): `Progressing` (NoClusterIP) for a
 * `LoadBalancer` Service the API server has not given a `spec.clusterIP` yet, `Healthy` otherwise.
 * Like kstatus it does not wait for a load balancer's ingress address: that depends on a cloud
 * controller many clusters do not have.
 */
export function serviceHealth(obj: K8sObject): HealthVerdict {
  const spec = specOf(obj);
  if (stringAt(spec, 'type') === 'LoadBalancer' && !stringAt(spec, 'clusterIP')) {
    return verdict('Progressing', 'NoClusterIP', 'the LoadBalancer Service has no cluster IP yet');
  }
  return verdict('Healthy', 'ServiceReady', 'the Service is ready');
}
