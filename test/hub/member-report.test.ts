import { describe, expect, it } from 'vitest';
import { memberReport } from '../../src/hub/member-report.js';
import { memberReportSchema, REPORT_LIMITS } from '../../src/hub/member-schema.js';
import type { SyncStatusJson } from '../../src/report/sync-status.js';

const REV = `main@sha1:${'a'.repeat(40)}`;

describe('memberReport', () => {
  it('reports a Ready status compactly: revisions, Ready with its reason, health, drift', () => {
    const status: SyncStatusJson = {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ReconciliationSucceeded',
          message: 'applied',
          lastTransitionTime: '2026-11-28T03:00:00Z',
        },
      ],
      lastAppliedRevision: REV,
      lastAttemptedRevision: REV,
      lastReconcileTime: '2026-11-28T03:00:01Z',
      health: { status: 'Healthy', reason: 'AllHealthy' },
      drift: { drifted: 0, missing: 0, modified: 0, extra: 0, items: [] },
    } as unknown as SyncStatusJson;
    expect(memberReport({ status, overlay: 'prod', platform: 'kubernetes', observedGeneration: 3 })).toEqual({
      observedGeneration: 3,
      platform: 'kubernetes',
      overlay: 'prod',
      revision: { applied: REV, attempted: REV },
      lastAppliedTime: '2026-11-28T03:00:01Z',
      ready: {
        status: 'True',
        reason: 'ReconciliationSucceeded',
        message: 'applied',
        since: '2026-11-28T03:00:00Z',
      },
      health: { status: 'Healthy', reason: 'AllHealthy' },
      drift: { count: 0 },
    });
  });

  it('says NotReported before the first cycle', () => {
    expect(memberReport({ status: undefined, overlay: 'prod' })).toEqual({
      overlay: 'prod',
      ready: { status: 'Unknown', reason: 'NotReported' },
    });
  });

  it('cuts whatever the status holds to the schema bounds, so the report always parses', () => {
    const huge = 'é'.repeat(50_000);
    const status = {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'not camel case!',
          message: huge,
          lastTransitionTime: 'yesterday',
        },
      ],
      lastAppliedRevision: 'not a revision',
      health: { status: 'Degraded', reason: huge, message: huge },
      drift: {
        drifted: 5_000_000,
        missing: 0,
        modified: 0,
        extra: 0,
        items: Array.from({ length: 100 }, (_, i) => ({
          object: `${huge}${i}`,
          type: 'modified',
          fields: [],
        })),
      },
      pending: Array.from({ length: 100 }, () => ({ stage: huge, message: huge })),
      suspended: { reason: 'x' },
    } as unknown as SyncStatusJson;
    const body = memberReport({ status, overlay: 'prod', source: { url: `https://git.example/${huge}` } });
    const report = memberReportSchema.parse({ sequence: 1, reportedAt: '2026-11-28T03:00:00Z', ...body });
    expect(report.ready).toMatchObject({ status: 'False', reason: 'Unknown' });
    expect(report.ready.message!.length).toBeLessThanOrEqual(REPORT_LIMITS.message);
    expect(report.revision).toBeUndefined();
    expect(report.drift!.count).toBe(1_000_000);
    expect(report.drift!.items).toHaveLength(REPORT_LIMITS.driftItems);
    expect(report.pending).toHaveLength(REPORT_LIMITS.pending);
    expect(report.suspended).toBe(true);
    expect(JSON.stringify(report).length).toBeLessThan(40_000);
  });
});
