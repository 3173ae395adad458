import { describe, expect, it } from 'vitest';
import { rebootCount } from '../../src/machine-config/rollout-hook.js';

describe('the rollout notice', () => {
  it('says how many nodes reboot, and says so plainly when a new pool has no status yet', () => {
    expect(rebootCount(3)).toBe('3 node(s)');
    expect(rebootCount(0)).toBe('0 node(s)');
    expect(rebootCount(undefined)).toBe('an unknown number of nodes (pool has no status)');
    expect(rebootCount(undefined)).not.toContain('?');
  });
});
