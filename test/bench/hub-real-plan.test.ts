import { describe, expect, it } from 'vitest';
import { memberProfile } from '../../bench/hub-model.js';
import { realAgentsSection, realMemberProfiles } from '../../bench/hub-real-plan.js';
import { assignWaves } from '../../src/hub/rollout-waves.js';

const WAVES = [
  { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
  { name: 'ten', percent: 10 },
  { name: 'half', percent: 50 },
  { name: 'rest', percent: 100 },
];

describe('bench hub: the real members', () => {
  it('puts the first real member in the canary wave and the others in later waves', () => {
    const real = realMemberProfiles(3);
    expect(real.map((p) => p.name)).toEqual(['real-00', 'real-01', 'real-02']);
    // The prod members of a 100-member run beside them, as the hub's RolloutController assigns them.
    const simulated = Array.from({ length: 100 }, (_, i) =>
      memberProfile(i, { silentEvery: 50, notReadyEvery: 20 }),
    )
      .filter((p) => p.environment === 'prod')
      .map((p) => ({ name: p.name, labels: p.labels }));
    const waves = assignWaves(WAVES, [...simulated, ...real]);
    expect(waves.get('real-00')).toBe(0);
    expect(waves.get('real-01')).toBeGreaterThan(0);
    expect(waves.get('real-02')).toBeGreaterThan(0);
    expect(realMemberProfiles(0)).toEqual([]);
  });

  it('reports released → applied per real member, n/a where the watch saw no release or no apply', () => {
    const text = realAgentsSection(
      [
        {
          name: 'real-00',
          wave: 'canary',
          releasedAt: 1000,
          appliedAt: 7250,
          appliedInCluster: 3000,
          ready: 'True (ReconciliationSucceeded)',
        },
        {
          name: 'real-01',
          wave: 'half',
          releasedAt: 5000,
          appliedAt: undefined,
          ready: 'False (SynthFailed)',
        },
        { name: 'real-02', wave: undefined, releasedAt: undefined, appliedAt: undefined, ready: 'no report' },
      ],
      { objects: 22, visibleMs: [300, 900, 1200], cpu: { controlPlanes: 0.31, agents: 0.05 } },
    );
    expect(text).toContain('| real-00 | canary | 6.3 s | 2.0 s | True (ReconciliationSucceeded) |');
    expect(text).toContain('| real-01 | half | n/a | n/a | False (SynthFailed) |');
    expect(text).toContain('| real-02 | none | n/a | n/a | no report |');
    expect(text).toContain('3 reports: p50 900 ms, max 1200 ms');
    expect(text).toContain('control planes used 0.31 cores and their agents 0.05 cores');
  });
});
