import type { K8sObject } from '../../core/object.js';

interface CatalogSourceStatus {
  connectionState?: { address?: string; lastConnect?: string; lastObservedState?: string };
  registryService?: {
    createdAt?: string;
    port?: string;
    protocol?: string;
    serviceName?: string;
    serviceNamespace?: string;
  };
  [field: string]: unknown;
}

/**
 * The status OLM writes on a gRPC CatalogSource whose registry pod serves (`READY`, with the
 * registry Service it created), or whose pod does not (`TRANSIENT_FAILURE`), as in real dumps:
 * `connectionState {address, lastConnect, lastObservedState}` and
 * `registryService {createdAt, port, protocol, serviceName, serviceNamespace}`. Times already set are
 * kept, so the status only changes when the state does.
 */
export function catalogSourceStatus(cs: K8sObject, serving: boolean, now: string): CatalogSourceStatus {
  const current = (cs.status as CatalogSourceStatus | undefined) ?? {};
  const { name, namespace } = cs.metadata;
  const state = serving ? 'READY' : 'TRANSIENT_FAILURE';
  const same = current.connectionState?.lastObservedState === state;
  const next: CatalogSourceStatus = {
    ...current,
    connectionState: {
      address: `${name}.${namespace}.svc:50051`,
      lastConnect: (same ? current.connectionState?.lastConnect : undefined) ?? now,
      lastObservedState: state,
    },
  };
  if (serving) {
    next.registryService = {
      createdAt: current.registryService?.createdAt ?? now,
      port: '50051',
      protocol: 'grpc',
      serviceName: name,
      serviceNamespace: namespace ?? '',
    };
  }
  return next;
}
