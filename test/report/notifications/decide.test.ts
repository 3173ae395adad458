import { describe, expect, it } from 'vitest';
import {
  decide,
  EMPTY_MEMORY,
  type DecideContext,
  type NotifyMemory,
} from '../../../src/report/notifications/decide.js';
import type { NotifyEvent } from '../../../src/report/notifications/types.js';

const SHA1 = '1'.repeat(40);
const SHA2 = '2'.repeat(40);
const REV1 = `main@sha1:${SHA1}`;
const REV2 = `main@sha1:${SHA2}`;
const ctx = (now = 0): DecideContext => ({ context: 'groundwork/staging/eu-1', now, dedupWindowMs: 600_000 });

type CycleEnded = Extract<NotifyEvent, { type: 'cycle-ended' }>;
const ended = (more: Partial<CycleEnded> = {}): CycleEnded => ({
  type: 'cycle-ended',
  revision: REV1,
  good: true,
  suspended: false,
  health: { status: 'Healthy', reason: 'Ready' },
  drift: [],
  mode: 'self-heal',
  ...more,
});

/** Runs events in order from an empty memory; returns every status and alert produced. */
function run(events: readonly NotifyEvent[], at: (i: number) => number = () => 0) {
  let memory: NotifyMemory = EMPTY_MEMORY;
  const statuses = [];
  const alerts = [];
  for (const [i, e] of events.entries()) {
    const out = decide(memory, e, ctx(at(i)));
    memory = out.memory;
    statuses.push(...out.statuses);
    alerts.push(...out.alerts);
  }
  return { statuses, alerts, memory };
}

describe('decide: commit statuses', () => {
  it('sets pending on fetch and success once applied and healthy, on the fetched commit, with the context', () => {
    const { statuses } = run([{ type: 'fetched', revision: REV1 }, ended()]);
    expect(statuses.map((s) => [s.sha, s.state, s.context])).toEqual([
      [SHA1, 'pending', 'groundwork/staging/eu-1'],
      [SHA1, 'success', 'groundwork/staging/eu-1'],
    ]);
  });

  it('does not send the same status twice for one commit, nor pending again on each poll (GitHub keeps every POST)', () => {
    const { statuses } = run([
      { type: 'fetched', revision: REV1 },
      ended(),
      { type: 'fetched', revision: REV1 },
      ended(),
      ended(),
    ]);
    expect(statuses.map((s) => s.state)).toEqual(['pending', 'success']);
    const quiet = run([ended(), ended(), ended()]);
    expect(quiet.statuses.map((s) => s.state)).toEqual(['success']);
  });

  it('puts a failure on the failing commit with its reason, not on the last good one', () => {
    const { statuses } = run([
      { type: 'fetched', revision: REV1 },
      ended(),
      { type: 'fetched', revision: REV2 },
      ended({
        revision: REV2,
        good: false,
        failure: { reason: 'SynthFailed', message: 'platform/main.ts:3: boom' },
      }),
    ]);
    expect(statuses.at(-1)).toMatchObject({
      sha: SHA2,
      state: 'failure',
      description: 'SynthFailed: platform/main.ts:3: boom',
    });
    expect(statuses.filter((s) => s.sha === SHA1).map((s) => s.state)).toEqual(['pending', 'success']);
  });

  it('sets no status for a transient failure (fetch, observe) or a revision that is not a commit', () => {
    const { statuses } = run([
      ended({ failure: { reason: 'FetchFailed', message: 'ECONNREFUSED' }, good: false }),
      ended({ failure: { reason: 'ObserveFailed', message: 'x' }, good: false }),
      ended({ revision: 'main@sha256:abc' }),
      ended({ revision: undefined }),
    ]);
    expect(statuses).toEqual([]);
  });

  it('keeps pending while health is progressing and fails on Degraded', () => {
    const { statuses } = run([
      ended({ health: { status: 'Progressing', reason: 'Rollout' } }),
      ended({ health: { status: 'Degraded', reason: 'CrashLoop' } }),
    ]);
    expect(statuses.map((s) => [s.state, s.description])).toEqual([
      ['pending', 'Groundwork: applied, health Progressing'],
      ['failure', 'Health Degraded: CrashLoop'],
    ]);
  });

  it('cuts a description to 140 characters on one line', () => {
    const { statuses } = run([
      ended({ good: false, failure: { reason: 'ApplyFailed', message: `a\n${'x'.repeat(300)}` } }),
    ]);
    expect(statuses[0]!.description).toHaveLength(140);
    expect(statuses[0]!.description).not.toContain('\n');
  });

  it('remembers at most 50 commits', () => {
    const events = Array.from({ length: 60 }, (_, i): NotifyEvent => ({
      type: 'fetched',
      revision: `main@sha1:${i.toString(16).padStart(40, '0')}`,
    }));
    expect(run(events).memory.statuses.size).toBe(50);
  });
});

describe('decide: alerts', () => {
  const failed = ended({ good: false, failure: { reason: 'ApplyFailed', message: 'Deployment/a: Invalid' } });

  it('alerts ApplyFailed once per revision and reason within the window, again after it', () => {
    const minutes = [0, 1, 2, 11];
    const { alerts } = run([failed, failed, failed, failed], (i) => minutes[i]! * 60_000);
    expect(alerts.map((a) => a.event)).toEqual(['ApplyFailed', 'ApplyFailed']);
    expect(alerts[0]).toMatchObject({
      key: `ApplyFailed/${REV1}/ApplyFailed`,
      severity: 'error',
      revision: REV1,
    });
  });

  it('alerts a new revision failing at once, even inside the window', () => {
    const { alerts } = run([failed, { ...failed, revision: REV2 }]);
    expect(alerts.map((a) => a.revision)).toEqual([REV1, REV2]);
  });

  it('alerts drift in detect-only mode only, each object once within the window', () => {
    const a = { id: 'ns_a__ConfigMap', type: 'modified' as const };
    const b = { id: 'ns_b__ConfigMap', type: 'missing' as const };
    expect(run([ended({ drift: [a] })]).alerts).toEqual([]);
    const { alerts } = run([
      ended({ mode: 'detect-only', drift: [a] }),
      { type: 'drift-checked', mode: 'detect-only', drift: [a] },
      { type: 'drift-checked', mode: 'detect-only', drift: [a, b] },
    ]);
    expect(alerts.map((x) => x.objects)).toEqual([
      ['ns_a__ConfigMap (modified)'],
      ['ns_b__ConfigMap (missing)'],
    ]);
  });

  it('alerts HealthDegraded on an applied revision', () => {
    const { alerts } = run([
      ended({ health: { status: 'Degraded', reason: 'CrashLoop', message: 'pod x' } }),
    ]);
    expect(alerts).toEqual([
      expect.objectContaining({
        event: 'HealthDegraded',
        reason: 'CrashLoop',
        key: `HealthDegraded/${REV1}/CrashLoop`,
      }),
    ]);
  });

  it('passes a domain alert through, deduplicated by its key', () => {
    const alert = {
      event: 'Promoted' as const,
      key: 'Promoted/prod/abc',
      severity: 'info' as const,
      summary: 'x',
    };
    expect(
      run([
        { type: 'alert', alert },
        { type: 'alert', alert },
      ]).alerts,
    ).toEqual([alert]);
  });

  it('sends no alert for transient failures', () => {
    expect(run([ended({ good: false, failure: { reason: 'FetchFailed', message: 'x' } })]).alerts).toEqual(
      [],
    );
  });
});
