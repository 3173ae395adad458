import { describe, expect, it } from 'vitest';
import { formatAge, operatorGrace } from '../../src/health/operator-grace.js';

const at = '2026-01-01T00:00:00Z';
const after = (ms: number) => new Date(Date.parse(at) + ms);
const unavailable = [{ type: 'Available', status: 'False', reason: 'Down', lastTransitionTime: at }];
const degraded = [{ type: 'Degraded', status: 'True', reason: 'Bad', lastTransitionTime: at }];
const min = 60_000;

describe("operatorGrace: oc's coInsights thresholds", () => {
  it.each([
    ['unavailable', unavailable, 5 * min, 'none'],
    ['unavailable', unavailable, 5 * min + 1, 'warning'],
    ['unavailable', unavailable, 20 * min, 'warning'],
    ['unavailable', unavailable, 20 * min + 1, 'error'],
    ['degraded', degraded, 5 * min + 1, 'warning'],
    ['degraded', degraded, 40 * min, 'warning'],
    ['degraded', degraded, 40 * min + 1, 'error'],
  ] as const)('%s for %i ms is %s', (_kind, conditions, ms, level) => {
    expect(operatorGrace('x', conditions, after(ms))?.level).toBe(level);
  });

  it('takes the worse of both conditions and says the time left', () => {
    const g = operatorGrace('etcd', [...unavailable, ...degraded], after(21 * min));
    expect(g).toMatchObject({ kind: 'unavailable', level: 'error', leftMs: 0 });
    expect(operatorGrace('etcd', degraded, after(6 * min))?.message).toBe(
      'etcd is degraded (Bad) for 6m: failing the update in 34m',
    );
  });

  it('counts a condition without a readable time as past every threshold', () => {
    expect(operatorGrace('x', [{ type: 'Degraded', status: 'True' }], after(0))?.level).toBe('error');
  });

  it('is undefined for an available, not degraded operator', () => {
    expect(operatorGrace('x', [{ type: 'Available', status: 'True' }], after(0))).toBeUndefined();
    expect(formatAge(3_725_000)).toBe('1h2m');
  });
});
