import { describe, expect, it } from 'vitest';
import { clusterServiceVersionHealth } from '../../src/health/cluster-service-version.js';
import { obj } from './helpers.js';

const csv = (status: string) =>
  obj(`apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: gitops.v1.2.0, namespace: openshift-operators}
spec: {displayName: GitOps}
${status}`);

const cases = [
  {
    name: 'csv-succeeded',
    status: 'Healthy',
    reason: 'Succeeded',
    yaml: 'status: {phase: Succeeded, reason: InstallSucceeded}',
  },
  {
    name: 'csv-failed',
    status: 'Degraded',
    reason: 'Failed',
    yaml: 'status: {phase: Failed, reason: InstallCheckFailed, message: install timeout}',
  },
  {
    name: 'csv-pending',
    status: 'Progressing',
    reason: 'Pending',
    yaml: 'status: {phase: Pending, reason: RequirementsNotMet}',
  },
  {
    name: 'csv-install-ready',
    status: 'Progressing',
    reason: 'InstallReady',
    yaml: 'status: {phase: InstallReady}',
  },
  {
    name: 'csv-installing',
    status: 'Progressing',
    reason: 'Installing',
    yaml: 'status: {phase: Installing, reason: InstallWaiting}',
  },
  {
    name: 'csv-replacing',
    status: 'Progressing',
    reason: 'Replacing',
    yaml: 'status: {phase: Replacing, reason: BeingReplaced}',
  },
  { name: 'csv-deleting', status: 'Progressing', reason: 'Deleting', yaml: 'status: {phase: Deleting}' },
  { name: 'csv-phase-unknown', status: 'Unknown', reason: 'Unknown', yaml: 'status: {phase: Unknown}' },
  {
    name: 'csv-unlisted-phase',
    status: 'Unknown',
    reason: 'UnknownPhase',
    yaml: 'status: {phase: Frobnicating}',
  },
  { name: 'csv-no-phase', status: 'Unknown', reason: 'NoStatus', yaml: 'status: {conditions: []}' },
  { name: 'csv-no-status', status: 'Unknown', reason: 'NoStatus', yaml: '' },
] as const;

describe('clusterServiceVersionHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ yaml, status, reason }) => {
    const v = clusterServiceVersionHealth(csv(yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it("carries OLM's reason and message", () => {
    expect(clusterServiceVersionHealth(csv(cases[1].yaml)).message).toBe(
      'phase Failed: InstallCheckFailed: install timeout',
    );
  });
});
