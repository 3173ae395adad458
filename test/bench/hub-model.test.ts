import { describe, expect, it } from 'vitest';
import { memberReportSchema } from '../../src/hub/member-schema.js';
import {
  appliedState,
  cores,
  INITIAL_STATE,
  jittered,
  memberProfile,
  nextChangeMs,
  nextState,
  percentile,
  reportBody,
  rng,
  type MemberState,
} from '../../bench/hub-model.js';

const stamp = { sequence: 1, reportedAt: '2026-11-28T06:00:00Z' };
const roles = { silentEvery: 50, notReadyEvery: 20 };

describe('bench hub: the simulated fleet', () => {
  it('plays the same fleet for the same index, with the injected failures at their rates', () => {
    expect(memberProfile(7, roles)).toEqual(memberProfile(7, roles));
    const fleet = Array.from({ length: 1000 }, (_, i) => memberProfile(i, roles));
    expect(new Set(fleet.map((p) => p.name)).size).toBe(1000);
    expect(fleet.filter((p) => p.role === 'silent')).toHaveLength(20);
    expect(fleet.filter((p) => p.role === 'not-ready')).toHaveLength(50);
    expect(fleet.filter((p) => p.openshift)).toHaveLength(800);
    expect(memberProfile(3, { silentEvery: 0, notReadyEvery: 0 }).role).toBe('healthy');
    // Silent members in prod (its rollout holds them), not-ready ones in canary (the halt's environment).
    expect(new Set(fleet.filter((p) => p.role === 'silent').map((p) => p.environment))).toEqual(
      new Set(['prod']),
    );
    expect(new Set(fleet.filter((p) => p.role === 'not-ready').map((p) => p.environment))).toEqual(
      new Set(['canary']),
    );
  });

  it('writes reports the CRD schema takes, of a real report size, Ready=False where it should', () => {
    const states: MemberState[] = [
      INITIAL_STATE,
      { ...INITIAL_STATE, drift: 7, ready: false },
      { ...INITIAL_STATE, updating: 2, ready: false },
    ];
    for (let i = 0; i < 40; i++)
      for (const s of states) {
        const body = reportBody(memberProfile(i, roles), s);
        expect(memberReportSchema.safeParse({ ...stamp, ...body }).success).toBe(true);
        const bytes = JSON.stringify(body).length;
        expect(bytes).toBeGreaterThan(400);
        expect(bytes).toBeLessThan(4000);
      }
    const notReady = memberProfile(10, roles);
    expect(notReady.role).toBe('not-ready');
    expect(reportBody(notReady, INITIAL_STATE).ready).toMatchObject({
      status: 'False',
      reason: 'HealthCheckFailed',
    });
    expect(reportBody(memberProfile(0, roles), INITIAL_STATE).ready.status).toBe('True');
    const drifting = reportBody(memberProfile(0, roles), { ...INITIAL_STATE, drift: 9, ready: false });
    expect(drifting.drift).toMatchObject({ count: 9 });
    expect(drifting.drift?.items).toHaveLength(5);
  });

  it('changes state: an update moves a machine at a time, Ready follows and its time moves only on a flip', () => {
    const always = (v: number) => () => v;
    const updating = nextState(INITIAL_STATE, always(0.6), 100);
    expect(updating).toMatchObject({ updating: 2, ready: false, since: 100 });
    const one = nextState(updating, always(0.1), 200);
    expect(one).toMatchObject({ updating: 1, ready: false, since: 100 });
    expect(nextState(one, always(0.1), 300)).toMatchObject({ updating: 0, ready: true, since: 300 });
    expect(nextState(INITIAL_STATE, always(0.9), 400)).toMatchObject({
      commit: 2,
      ready: true,
      since: INITIAL_STATE.since,
    });
  });
});

describe('bench hub: when a member changes next', () => {
  it('heals drift within seconds, moves an update on within half a minute, else waits at random', () => {
    const random = rng(3);
    for (let i = 0; i < 50; i++) {
      const heal = nextChangeMs({ ...INITIAL_STATE, drift: 2 }, random, 300_000);
      expect(heal).toBeGreaterThanOrEqual(2500);
      expect(heal).toBeLessThanOrEqual(7500);
      expect(nextChangeMs({ ...INITIAL_STATE, updating: 1 }, random, 300_000)).toBeLessThanOrEqual(30_000);
    }
    const waits = Array.from({ length: 2000 }, () => nextChangeMs(INITIAL_STATE, random, 300_000));
    const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
    expect(mean).toBeGreaterThan(250_000);
    expect(mean).toBeLessThan(350_000);
    expect(nextState({ ...INITIAL_STATE, drift: 3, ready: false }, () => 0.9, 10)).toMatchObject({
      drift: 0,
      ready: true,
    });
  });
});

describe('bench hub: a release applied', () => {
  it('reports the released revision, healed and Ready, and a not-ready member still failing', () => {
    const rev = `prod@sha1:${'b'.repeat(40)}`;
    const s = appliedState({ ...INITIAL_STATE, drift: 2, ready: false }, rev, 500);
    expect(s).toMatchObject({ revision: rev, drift: 0, updating: 0, ready: true, since: 500 });
    expect(appliedState(INITIAL_STATE, rev, 500).since).toBe(INITIAL_STATE.since);
    expect(reportBody(memberProfile(2, roles), s).revision).toEqual({ applied: rev, attempted: rev });
    expect(memberProfile(2, roles).labels).toMatchObject({ ring: 'canary' });
    const failing = reportBody(memberProfile(10, roles), s);
    expect(failing.revision?.applied).toBe(rev);
    expect(failing.ready.status).toBe('False');
  });
});

describe('bench hub: statistics', () => {
  it('takes nearest-rank percentiles without sorting its input', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 100)).toBe(5);
    expect(percentile(values, 0)).toBe(1);
    expect(values).toEqual([5, 1, 4, 2, 3]);
    expect(
      percentile(
        Array.from({ length: 1000 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(990);
    expect(percentile([], 50)).toBeNaN();
  });

  it('turns CPU milliseconds over wall milliseconds into cores, and jitters within its bounds', () => {
    expect(cores(1000, 4000, 2000)).toBe(1.5);
    expect(cores(0, 10, 0)).toBe(0);
    const random = rng(42);
    const samples = Array.from({ length: 500 }, () => jittered(15_000, random));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(13_500);
    expect(Math.max(...samples)).toBeLessThanOrEqual(16_500);
    expect(new Set(samples).size).toBeGreaterThan(100);
    expect(rng(1)()).toBe(rng(1)());
  });
});
