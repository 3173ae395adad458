import { describe, expect, it } from 'vitest';
import { clusterOperatorHealth, operatorVersion } from '../../src/health/cluster-operator.js';
import { obj } from './helpers.js';

const co = (conditions: string, versions = '[{name: operator, version: 4.14.1}]') =>
  obj(`apiVersion: config.openshift.io/v1
kind: ClusterOperator
metadata: {name: etcd}
status:
  versions: ${versions}
  conditions:
${conditions}`);

const cond = (type: string, status: string, reason = 'AsExpected', message = '') =>
  `  - {type: ${type}, status: "${status}", reason: ${reason}, message: '${message}'}\n`;

const fine = cond('Available', 'True') + cond('Progressing', 'False') + cond('Degraded', 'False');

const cases = [
  { name: 'clusteroperator-no-conditions', yaml: '    []', status: 'Unknown', reason: 'NoStatus' },
  {
    name: 'clusteroperator-degraded',
    yaml:
      cond('Available', 'True') +
      cond('Degraded', 'True', 'NodeController_MasterNodesReady', 'node not ready'),
    status: 'Degraded',
    reason: 'OperatorDegraded',
  },
  {
    name: 'clusteroperator-unavailable',
    yaml:
      cond('Available', 'False', 'UnavailableReplicas', 'Missing 1 available replica(s)') +
      cond('Progressing', 'True'),
    status: 'Degraded',
    reason: 'OperatorUnavailable',
  },
  {
    name: 'clusteroperator-availability-unknown',
    yaml: cond('Available', 'Unknown', 'NoData') + cond('Degraded', 'False'),
    status: 'Unknown',
    reason: 'AvailabilityUnknown',
  },
  {
    name: 'clusteroperator-no-available-condition',
    yaml: cond('Degraded', 'False'),
    status: 'Unknown',
    reason: 'AvailabilityUnknown',
  },
  {
    name: 'clusteroperator-progressing',
    yaml:
      cond('Available', 'True') +
      cond('Progressing', 'True', 'Deploying', 'DaemonSet ovnkube-node is not available'),
    status: 'Progressing',
    reason: 'OperatorProgressing',
  },
  { name: 'clusteroperator-healthy', yaml: fine, status: 'Healthy', reason: 'OperatorAvailable' },
  {
    name: 'clusteroperator-not-upgradeable',
    yaml: fine + cond('Upgradeable', 'False', 'PoolUpdating', 'pools are updating'),
    status: 'Healthy',
    reason: 'OperatorAvailable',
  },
] as const;

describe('clusterOperatorHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = clusterOperatorHealth(co(yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it("carries the operator's own reason and message", () => {
    expect(clusterOperatorHealth(co(cases[2].yaml)).message).toBe(
      'UnavailableReplicas: Missing 1 available replica(s)',
    );
  });

  it('reports Upgradeable=False in the message without judging it', () => {
    expect(clusterOperatorHealth(co(cases[7].yaml)).message).toBe(
      'available at 4.14.1; not upgradeable to the next minor version (PoolUpdating: pools are updating)',
    );
    expect(clusterOperatorHealth(co(fine, '[]')).message).toBe('available');
  });

  it('reads the version the operator reports for itself', () => {
    expect(
      operatorVersion(co(fine, '[{name: raw-internal, version: x}, {name: operator, version: 4.14.0}]')),
    ).toBe('4.14.0');
    expect(operatorVersion(co(fine, '[{name: raw-internal, version: x}]'))).toBeUndefined();
  });
});
