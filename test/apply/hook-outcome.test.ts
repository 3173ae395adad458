import { describe, expect, it } from 'vitest';
import type { K8sObject } from '../../src/core/object.js';
import { hookOutcome } from '../../src/apply/stage-waits.js';

const job = (status?: Record<string, unknown>): K8sObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'migrate', namespace: 'n' },
  ...(status ? { status } : {}),
});
const pod = (phase?: string): K8sObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'n' },
  ...(phase ? { status: { phase } } : {}),
});

describe('hookOutcome (helm WatchUntilReady milestones)', () => {
  it.each([
    ['a Job without status', job(), 'pending'],
    [
      'a running Job (kstatus calls it Healthy; a hook is not done)',
      job({ active: 1, startTime: 'x' }),
      'pending',
    ],
    [
      'a Job with Complete=True',
      job({ succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }),
      'done',
    ],
    ['a Job with Complete=False', job({ conditions: [{ type: 'Complete', status: 'False' }] }), 'pending'],
    [
      'a Job with Failed=True',
      job({ failed: 2, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] }),
      'failed',
    ],
    ['a Pod without a phase', pod(), 'pending'],
    ['a Running Pod', pod('Running'), 'pending'],
    ['a Succeeded Pod', pod('Succeeded'), 'done'],
    ['a Failed Pod', pod('Failed'), 'failed'],
    ['a ConfigMap (exists)', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, 'done'],
  ])('%s: %s', (_, live, state) => {
    expect(hookOutcome(live).state).toBe(state);
  });

  it('names the reason and the pod counts of a failed Job', () => {
    const out = hookOutcome(
      job({
        failed: 2,
        conditions: [
          {
            type: 'Failed',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          },
        ],
      }),
    );
    expect(out.message).toBe(
      'the job failed (BackoffLimitExceeded): Job has reached the specified backoff limit (0 succeeded, 0 active, 2 failed)',
    );
  });

  it('refuses a Job status of the wrong shape instead of guessing', () => {
    expect(() => hookOutcome(job({ conditions: 'done' }))).toThrow(/Job\/n\/migrate/);
  });
});
