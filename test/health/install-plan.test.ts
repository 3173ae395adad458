import { describe, expect, it } from 'vitest';
import { installPlanHealth } from '../../src/health/install-plan.js';
import { obj } from './helpers.js';

const plan = (spec: string, status: string) =>
  obj(`apiVersion: operators.coreos.com/v1alpha1
kind: InstallPlan
metadata: {name: install-m7wvs, namespace: openshift-operators}
spec: {approval: Manual, ${spec} clusterServiceVersionNames: [gitops.v1.2.0]}
${status}`);

const failedCondition = `status:
  phase: Failed
  conditions:
  - type: Installed
    status: "False"
    reason: InstallComponentFailed
    message: CustomResourceDefinition gitopsservices.pipelines.openshift.io not found`;

const cases = [
  {
    name: 'installplan-complete',
    spec: 'approved: true,',
    yaml: 'status: {phase: Complete}',
    status: 'Healthy',
    reason: 'Complete',
  },
  {
    name: 'installplan-failed',
    spec: 'approved: true,',
    yaml: failedCondition,
    status: 'Degraded',
    reason: 'Failed',
  },
  {
    name: 'installplan-failed-message-only',
    spec: 'approved: true,',
    yaml: 'status: {phase: Failed, message: bundle unpacking failed}',
    status: 'Degraded',
    reason: 'Failed',
  },
  {
    name: 'installplan-requires-approval',
    spec: 'approved: false,',
    yaml: 'status: {phase: RequiresApproval}',
    status: 'Suspended',
    reason: 'RequiresApproval',
  },
  {
    name: 'installplan-approved',
    spec: 'approved: true,',
    yaml: 'status: {phase: RequiresApproval}',
    status: 'Progressing',
    reason: 'Approved',
  },
  {
    name: 'installplan-planning',
    spec: '',
    yaml: 'status: {phase: Planning}',
    status: 'Progressing',
    reason: 'Planning',
  },
  {
    name: 'installplan-installing',
    spec: '',
    yaml: 'status: {phase: Installing}',
    status: 'Progressing',
    reason: 'Installing',
  },
  {
    name: 'installplan-unknown-phase',
    spec: '',
    yaml: 'status: {phase: Exploding}',
    status: 'Unknown',
    reason: 'UnknownPhase',
  },
  { name: 'installplan-no-status', spec: '', yaml: '', status: 'Unknown', reason: 'NoStatus' },
] as const;

describe('installPlanHealth', () => {
  it.each(cases)('$name is $status ($reason)', ({ spec, yaml, status, reason }) => {
    const v = installPlanHealth(plan(spec, yaml));
    expect([v.status, v.reason]).toEqual([status, reason]);
  });

  it('explains a failure from the Installed condition, else from status.message', () => {
    expect(installPlanHealth(plan('', failedCondition)).message).toBe(
      'installing gitops.v1.2.0 failed: InstallComponentFailed: CustomResourceDefinition gitopsservices.pipelines.openshift.io not found',
    );
    expect(installPlanHealth(plan('', cases[2].yaml)).message).toBe(
      'installing gitops.v1.2.0 failed: bundle unpacking failed',
    );
  });

  it('says how to approve a manual plan', () => {
    expect(installPlanHealth(plan('approved: false,', cases[3].yaml)).message).toBe(
      'waits for manual approval (spec.approved: true) to install gitops.v1.2.0',
    );
  });
});
