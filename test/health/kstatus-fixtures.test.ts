import { describe, expect, it } from 'vitest';
import { assessHealth, rollUp, type HealthStatus } from '../../src/health/index.js';
import { SCHEDULE_WINDOW_MS } from '../../src/health/pod.js';
import { readObject, variant } from './helpers.js';

/**
 * Objects no controller has reported on yet, an unschedulable pod and a StatefulSet whose
 * controller names no revision (test/fixtures/kstatus/<kind>-<state>.yaml, see its PROVENANCE.md),
 * each with kstatus' status for it by cli-utils `pkg/kstatus/status/core.go` and `generic.go`.
 */
const CREATED = Date.parse('2025-10-21T15:00:00Z');
const later = (ms: number) => new Date(CREATED + ms);

type KStatus = 'Current' | 'InProgress' | 'Failed';
const KSTATUS_OF: Partial<Record<HealthStatus, KStatus>> = {
  Healthy: 'Current',
  Progressing: 'InProgress',
  Degraded: 'Failed',
};

const table: readonly { fixture: string; kstatus: KStatus; status: HealthStatus; reason: string }[] = [
  // podConditions: no phase is "PodNotObserved".
  { fixture: 'pod-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'NotObserved' },
  // pvcConditions: a phase other than Bound, "unknown" when absent.
  {
    fixture: 'persistentvolumeclaim-no-status',
    kstatus: 'InProgress',
    status: 'Progressing',
    reason: 'NotBound',
  },
  // stsConditions: spec.replicas 4 > status.replicas 0 (LessReplicas).
  { fixture: 'statefulset-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'RollingOut' },
  // stsConditions: currentReplicas 0 < 4 (LessCurrent).
  {
    fixture: 'statefulset-rolling-no-revision',
    kstatus: 'InProgress',
    status: 'Progressing',
    reason: 'RollingOut',
  },
  // daemonsetConditions, checkGenerationSet: no status.observedGeneration.
  { fixture: 'daemonset-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'NotObserved' },
  // deploymentConditions: spec.replicas 2 > status.replicas 0 (LessReplicas).
  { fixture: 'deployment-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'NotObserved' },
  // replicasetConditions: spec.replicas 2 > fullyLabeledReplicas 0 (LessLabelled).
  { fixture: 'replicaset-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'NotReady' },
  // jobConditions: no startTime (JobNotStarted).
  { fixture: 'job-no-status', kstatus: 'InProgress', status: 'Progressing', reason: 'NotStarted' },
  // CRDConditions: no Established condition (Installing).
  {
    fixture: 'customresourcedefinition-no-status',
    kstatus: 'InProgress',
    status: 'Progressing',
    reason: 'NotEstablished',
  },
  // podConditions: Pending and Unschedulable past the 15 s ScheduleWindow.
  { fixture: 'pod-unschedulable', kstatus: 'Failed', status: 'Degraded', reason: 'Unschedulable' },
];

describe('kstatus fixtures', () => {
  it.each(table)(
    '$fixture is $status ($reason), kstatus $kstatus',
    ({ fixture, kstatus, status, reason }) => {
      const v = assessHealth(readObject(`kstatus/${fixture}.yaml`), { now: later(60_000) });
      expect([v.status, v.reason, KSTATUS_OF[v.status]]).toEqual([status, reason, kstatus]);
      expect(v.message).not.toMatch(/undefined|NaN/);
    },
  );

  it('gives an unschedulable pod kstatus 15 s from its creation before it fails', () => {
    const pod = readObject('kstatus/pod-unschedulable.yaml');
    const at = (ms: number) => assessHealth(pod, { now: later(ms) });
    expect([at(0).status, at(0).reason]).toEqual(['Progressing', 'NotScheduled']);
    expect(at(SCHEDULE_WINDOW_MS - 1).status).toBe('Progressing');
    expect(at(SCHEDULE_WINDOW_MS)).toEqual({
      status: 'Degraded',
      reason: 'Unschedulable',
      message:
        'not scheduled 15 s after creation: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    });
    // Without a creationTimestamp kstatus compares with Go's zero time: past the window.
    const undated = variant(pod, (p) => delete p.metadata.creationTimestamp);
    expect(assessHealth(undated, { now: later(0) }).status).toBe('Degraded');
    // Only a Pending pod: a running pod is judged by readiness.
    const running = variant(pod, (p) => ((p.status as { phase: string }).phase = 'Running'));
    expect(assessHealth(running, { now: later(60_000) }).reason).toBe('NotReady');
  });

  it('says which revisions a StatefulSet rolls between only when its controller named them', () => {
    const sts = readObject('kstatus/statefulset-rolling-no-revision.yaml');
    expect(assessHealth(sts).message).toBe(
      'rolling update in progress: 0 of 4 pods updated, 0 at the current revision',
    );
    const named = variant(sts, (s) =>
      Object.assign(s.status as object, { currentRevision: 'db-5c9f', updateRevision: 'db-7d8e' }),
    );
    expect(assessHealth(named).message).toBe(
      'rolling update in progress: 0 of 4 pods updated to revision db-7d8e, 0 at the current revision',
    );
  });

  it('rolls objects with no status up as Progressing, which every wait keeps waiting on', () => {
    const verdicts = table
      .filter((t) => t.fixture.endsWith('-no-status'))
      .map((t) => ({ subject: t.fixture, ...assessHealth(readObject(`kstatus/${t.fixture}.yaml`)) }));
    expect(rollUp(verdicts).status).toBe('Progressing');
    expect(verdicts.map((v) => v.status).filter((s) => s === 'Unknown')).toEqual([]);
  });
});
