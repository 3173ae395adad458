import { describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/apply/changeset.js';
import { GroundworkMetrics } from '../../src/report/metrics.js';

/** The value of the sample `name` whose labels include `labels` (label order is prom-client's). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const REV1 = 'main@sha1:1111111111111111111111111111111111111111';
const REV2 = 'main@sha1:2222222222222222222222222222222222222222';

describe('GroundworkMetrics', () => {
  it('exposes every Groundwork metric in the exposition text', async () => {
    const metrics = new GroundworkMetrics({ labels: { platform: 'example', overlay: 'prod' } });
    metrics.reconciled(1500, 'applied');
    metrics.reconciled(20, 'noop');
    metrics.reconcileError('SynthFailed');
    metrics.objects({ created: 2, configured: 1, unchanged: 40, pruned: 1 });
    metrics.drift(3);
    metrics.driftDetected(420);
    metrics.appliedRevision(REV1);
    metrics.leader(true);
    const text = await metrics.text();

    const l = { platform: 'example', overlay: 'prod' };
    expect(text).toContain('# TYPE groundwork_reconcile_duration_seconds histogram');
    expect(sample(text, 'groundwork_reconcile_duration_seconds_count', { ...l, result: 'applied' })).toBe(1);
    expect(
      sample(text, 'groundwork_reconcile_duration_seconds_bucket', { ...l, result: 'applied', le: '1' }),
    ).toBe(0);
    expect(
      sample(text, 'groundwork_reconcile_duration_seconds_bucket', { ...l, result: 'applied', le: '2.5' }),
    ).toBe(1);
    expect(sample(text, 'groundwork_reconcile_duration_seconds_count', { ...l, result: 'noop' })).toBe(1);
    expect(sample(text, 'groundwork_reconcile_errors_total', { ...l, reason: 'SynthFailed' })).toBe(1);
    expect(sample(text, 'groundwork_objects', { ...l, state: 'created' })).toBe(2);
    expect(sample(text, 'groundwork_objects', { ...l, state: 'unchanged' })).toBe(40);
    expect(sample(text, 'groundwork_objects', { ...l, state: 'pruned' })).toBe(1);
    expect(sample(text, 'groundwork_objects', { ...l, state: 'failed' })).toBe(0);
    expect(sample(text, 'groundwork_objects', { ...l, state: 'drifted' })).toBe(3);
    expect(sample(text, 'groundwork_drifted_objects', l)).toBe(3);
    expect(sample(text, 'groundwork_drift_detection_seconds_bucket', { ...l, le: '0.5' })).toBe(1);
    expect(sample(text, 'groundwork_drift_detection_seconds_bucket', { ...l, le: '0.25' })).toBe(0);
    expect(sample(text, 'groundwork_last_applied_revision_info', { ...l, revision: REV1 })).toBe(1);
    expect(sample(text, 'groundwork_leader', l)).toBe(1);
    // Default process metrics.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('keeps only the current revision series and maps a change set onto object states', async () => {
    const metrics = new GroundworkMetrics({ processMetrics: false });
    metrics.appliedRevision(REV1);
    metrics.appliedRevision(REV2);
    const ref = { group: '', kind: 'ConfigMap', namespace: 'a', name: 'b' };
    const changes = new ChangeSet({
      entries: [
        { id: 'a_b__ConfigMap', ref, stage: 'resources', action: 'deleted' },
        { id: 'a_c__ConfigMap', ref: { ...ref, name: 'c' }, stage: 'resources', action: 'failed' },
      ],
    });
    metrics.changeSet(changes.counts);
    metrics.leader(false);
    const text = await metrics.text();
    expect(text).not.toContain(REV1);
    expect(sample(text, 'groundwork_last_applied_revision_info', { revision: REV2 })).toBe(1);
    expect(sample(text, 'groundwork_objects', { state: 'pruned' })).toBe(1);
    expect(sample(text, 'groundwork_objects', { state: 'failed' })).toBe(1);
    expect(sample(text, 'groundwork_objects', { state: 'created' })).toBe(0);
    expect(sample(text, 'groundwork_leader')).toBe(0);
    expect(text).not.toContain('process_cpu_user_seconds_total');
  });
});
