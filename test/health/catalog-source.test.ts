import { describe, expect, it } from 'vitest';
import { catalogSourceHealth } from '../../src/health/catalog-source.js';
import { obj } from './helpers.js';

const source = (status: string) =>
  obj(`apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: redhat-operators, namespace: openshift-marketplace}
spec: {sourceType: grpc, image: registry.redhat.io/redhat/redhat-operator-index:v4.14}
${status}`);

const connection = (state: string) =>
  `status:\n  connectionState: {address: 'redhat-operators.openshift-marketplace.svc:50051', lastObservedState: ${state}}`;

const cases = [
  { name: 'catalogsource-ready', yaml: connection('READY'), status: 'Healthy', reason: 'Ready' },
  {
    name: 'catalogsource-connecting',
    yaml: connection('CONNECTING'),
    status: 'Progressing',
    reason: 'Connecting',
  },
  { name: 'catalogsource-idle', yaml: connection('IDLE'), status: 'Progressing', reason: 'Connecting' },
  {
    name: 'catalogsource-transient-failure',
    yaml: connection('TRANSIENT_FAILURE'),
    status: 'Degraded',
    reason: 'ConnectionFailed',
  },
  {
    name: 'catalogsource-shutdown',
    yaml: connection('SHUTDOWN'),
    status: 'Degraded',
    reason: 'ConnectionFailed',
  },
  {
    name: 'catalogsource-unlisted-state',
    yaml: connection('WEIRD'),
    status: 'Unknown',
    reason: 'UnknownState',
  },
  {
    name: 'catalogsource-source-error',
    yaml: "status: {reason: InvalidSourceType, message: 'unknown sourcetype: nope'}",
    status: 'Degraded',
    reason: 'SourceError',
  },
  {
    name: 'catalogsource-not-connected',
    yaml: 'status: {registryService: {serviceName: redhat-operators}}',
    status: 'Progressing',
    reason: 'NotConnected',
  },
  { name: 'catalogsource-no-status', yaml: '', status: 'Unknown', reason: 'NoStatus' },
] as const;

describe('catalogSourceHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = catalogSourceHealth(source(yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('names the address and the state', () => {
    expect(catalogSourceHealth(source(cases[3].yaml)).message).toBe(
      'connection to redhat-operators.openshift-marketplace.svc:50051 is TRANSIENT_FAILURE',
    );
    expect(catalogSourceHealth(source(cases[6].yaml)).message).toBe(
      'InvalidSourceType: unknown sourcetype: nope',
    );
  });
});
