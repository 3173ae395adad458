import { describe, expect, it } from 'vitest';
import { rollUp } from '../../src/health/roll-up.js';
import { verdict } from '../../src/health/types.js';

const ok = (subject: string) => ({ subject, ...verdict('Healthy', 'Ready', 'fine') });
const bad = (subject: string, reason = 'Failed') => ({ subject, ...verdict('Degraded', reason, 'broken') });

describe('rollUp', () => {
  it('is Healthy for nothing and for all healthy', () => {
    expect(rollUp([])).toEqual(verdict('Healthy', 'NothingToAssess', 'nothing to assess'));
    expect(rollUp([ok('a'), ok('b')])).toEqual(verdict('Healthy', 'AllHealthy', 'all 2 healthy'));
  });

  it('takes the worst state and names its members with their messages', () => {
    const v = rollUp([
      ok('a'),
      { subject: 'b', ...verdict('Progressing', 'RollingOut', 'moving') },
      bad('c'),
    ]);
    expect(v).toEqual(verdict('Degraded', 'Failed', '1 of 3 Degraded: c: broken'));
  });

  it('keeps a shared reason, else uses the state as reason', () => {
    expect(rollUp([bad('a'), bad('b')]).reason).toBe('Failed');
    expect(rollUp([bad('a'), bad('b', 'Stalled')]).reason).toBe('Degraded');
  });

  it('accepts verdicts without subjects and names at most five', () => {
    const many = Array.from({ length: 7 }, (_, i) => verdict('Suspended', 'Paused', `p${i}`));
    expect(rollUp(many).message).toBe('7 of 7 Suspended: p0; p1; p2; p3; p4; and 2 more');
  });
});
