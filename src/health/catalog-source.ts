import type { K8sObject } from '../core/object.js';
import { noStatus, objectAt, statusOf, stringAt } from './fields.js';
import { verdict, type HealthVerdict } from './types.js';

/**
 * Health of an OLM CatalogSource, from the gRPC connection state OLM records in
 * `status.connectionState.lastObservedState`:
 *
 * - `Healthy` (Ready) for `READY`, the only state in which OLM resolves from the catalog;
 * - `Progressing` (Connecting) for `CONNECTING` and `IDLE` (OLM reconnects by itself);
 * - `Degraded` (ConnectionFailed) for `TRANSIENT_FAILURE` and `SHUTDOWN`: the registry pod is not
 *   serving (image pull, crash, bad address), which OLM reports to every Subscription as
 *   `CatalogSourcesUnhealthy`;
 * - without a connection state: `Degraded` (SourceError) when OLM recorded a `status.reason`, such
 *   as an invalid source type; `Progressing` (NotConnected) otherwise; `Unknown` without status.
 *
 * It does not judge the catalog's content (missing packages surface on the Subscription as
 * `ResolutionFailed`), nor registry polling.
 */
export function catalogSourceHealth(obj: K8sObject): HealthVerdict {
  const status = statusOf(obj);
  if (!status) return noStatus(obj);
  const connection = objectAt(status, 'connectionState');
  const state = stringAt(connection, 'lastObservedState');
  const address = stringAt(connection, 'address') ?? 'no address';

  switch (state) {
    case 'READY':
      return verdict('Healthy', 'Ready', `serving at ${address}`);
    case 'CONNECTING':
    case 'IDLE':
      return verdict('Progressing', 'Connecting', `connection to ${address} is ${state}`);
    case 'TRANSIENT_FAILURE':
    case 'SHUTDOWN':
      return verdict('Degraded', 'ConnectionFailed', `connection to ${address} is ${state}`);
    case undefined: {
      const reason = stringAt(status, 'reason');
      return reason
        ? verdict('Degraded', 'SourceError', [reason, stringAt(status, 'message')].filter(Boolean).join(': '))
        : verdict('Progressing', 'NotConnected', 'OLM has not connected to the catalog yet');
    }
    default:
      return verdict('Unknown', 'UnknownState', `unknown connection state ${state}`);
  }
}
