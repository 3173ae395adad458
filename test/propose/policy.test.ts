import { describe, expect, it } from 'vitest';
import { PROPOSE_DEFAULTS, ageMs, kindPolicy, proposeSchema } from '../../src/project/propose-config.js';
import { ageProblem, ignoredBy, withinLevel } from '../../src/propose/level.js';

describe('the propose: policy of groundwork.yaml', () => {
  it('defaults to patch updates of every kind, no minimum age, nothing ignored', () => {
    const config = proposeSchema.parse({});
    for (const kind of ['operators', 'clusterVersion', 'charts'] as const)
      expect(kindPolicy(config, kind, 'dev')).toEqual(PROPOSE_DEFAULTS);
    expect(PROPOSE_DEFAULTS).toMatchObject({ update: 'patch', minimumAgeMs: 0, ignore: [] });
  });

  it('takes per-kind fields and lets an environment replace some of them', () => {
    const config = proposeSchema.parse({
      operators: { update: 'channel', ignore: ['cert-manager', 'kepler-operator@>=0.25.0'] },
      charts: { minimumAge: '3d' },
      environments: { dev: { operators: { update: 'minor' }, charts: { minimumAge: '0s' } } },
    });
    expect(kindPolicy(config, 'operators', 'prod')).toMatchObject({
      update: 'channel',
      ignore: [{ subject: 'cert-manager' }, { subject: 'kepler-operator', range: '>=0.25.0' }],
    });
    expect(kindPolicy(config, 'operators', 'dev')).toMatchObject({
      update: 'minor',
      ignore: [{ subject: 'cert-manager' }, { subject: 'kepler-operator', range: '>=0.25.0' }],
    });
    expect(kindPolicy(config, 'charts', 'prod')).toMatchObject({
      update: 'patch',
      minimumAgeMs: 3 * 86_400_000,
    });
    expect(kindPolicy(config, 'charts', 'dev').minimumAgeMs).toBe(0);
  });

  it.each([
    [{ operators: { update: 'major' } }, 'operators.update'],
    [{ charts: { update: 'channel' } }, 'charts.update'],
    [{ charts: { minimumAge: '1w' } }, 'charts.minimumAge'],
    [{ clusterVersion: { ignore: ['openshift@not a range!'] } }, 'clusterVersion.ignore.0'],
    [{ operators: { ignore: ['../etc'] } }, 'operators.ignore.0'],
    [{ operators: { pin: 'x' } }, 'operators'],
    [{ environments: { 'Not A Label': {} } }, 'environments.Not A Label'],
  ])('refuses %j at %s', (input, path) => {
    const result = proposeSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('reads durations with one unit', () => {
    expect([ageMs('7d'), ageMs('36h'), ageMs('90m'), ageMs('0s')]).toEqual([
      604_800_000, 129_600_000, 5_400_000, 0,
    ]);
    expect(ageMs('1h30m')).toBeNaN();
  });
});

describe('withinLevel, ignoredBy, ageProblem', () => {
  it.each([
    ['patch', '1.14.4', '1.14.5', true],
    ['patch', '1.14.4', '1.15.0', false],
    ['minor', '1.14.4', '1.16.0', true],
    ['minor', '1.14.4', '2.0.0', false],
    ['channel', '1.14.4', '2.0.0', true],
    ['major', '1.14.4', '3.0.0', true],
    ['none', '1.14.4', '1.14.5', false],
    ['patch', '1.14.5', '1.14.4', false],
    ['patch', '1.14.5', '1.14.5', false],
  ] as const)('%s: %s → %s is %s', (update, from, to, ok) => {
    expect(withinLevel({ update }, from, to)).toBe(ok);
  });

  it('allows only the next minor where minors are never skipped', () => {
    expect(withinLevel({ update: 'minor' }, '4.16.20', '4.17.3', { nextMinorOnly: true })).toBe(true);
    expect(withinLevel({ update: 'minor' }, '4.16.20', '4.18.0', { nextMinorOnly: true })).toBe(false);
  });

  it('matches ignore rules by subject and range', () => {
    const rules = [
      { subject: 'podinfo', range: '>=6.6.0' },
      { subject: 'openshift', range: '4.16.22' },
    ];
    expect(ignoredBy(rules, 'podinfo', '6.6.1')).toEqual(rules[0]);
    expect(ignoredBy(rules, 'podinfo', '6.5.9')).toBeUndefined();
    expect(ignoredBy(rules, 'openshift', '4.16.22')).toEqual(rules[1]);
    expect(ignoredBy(rules, 'other', '6.6.1')).toBeUndefined();
  });

  it('refuses a young release, and an undated one only when a minimum is set', () => {
    const now = new Date('2026-11-28T00:00:00Z');
    const week = { ...PROPOSE_DEFAULTS, minimumAge: '7d', minimumAgeMs: 7 * 86_400_000 };
    expect(ageProblem(week, new Date('2026-11-25T00:00:00Z'), now)).toContain('younger than minimumAge 7d');
    expect(ageProblem(week, new Date('2026-11-01T00:00:00Z'), now)).toBeUndefined();
    expect(ageProblem(week, undefined, now)).toContain('gives no release date');
    expect(ageProblem(PROPOSE_DEFAULTS, undefined, now)).toBeUndefined();
  });
});
