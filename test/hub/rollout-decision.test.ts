import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideRollout } from '../../src/hub/rollout-decision.js';
import { assignWaves, countOf } from '../../src/hub/rollout-waves.js';
import { OLD, SHA, T0, agentsApply, fleet, member, report, rollout, spec, step } from './rollout-fixtures.js';

const MIN = 60_000;
type Arb<A> = A extends fc.Arbitrary<infer T> ? T : never;
const releasedNames = (d: { releases: readonly { member: string }[] }) =>
  d.releases.map((r) => r.member).sort();

describe('assignWaves', () => {
  const members = fleet(20);
  it('takes the canary by selector, then a percentage of those left (rounded up), then the rest', () => {
    const waves = assignWaves(spec().waves, members);
    expect(
      [...waves]
        .filter(([, w]) => w === 0)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['canary-1', 'canary-2']);
    expect([...waves].filter(([, w]) => w === 1)).toHaveLength(2); // 10% of 20, rounded up
    expect([...waves].filter(([, w]) => w === 2)).toHaveLength(18);
  });

  it('is deterministic and spreads a percentage by hash, not by name', () => {
    const again = assignWaves(spec().waves, [...members].reverse());
    expect(again).toEqual(assignWaves(spec().waves, members));
    const ten = [...again].filter(([, w]) => w === 1).map(([n]) => n);
    expect(ten).not.toEqual(['store-000', 'store-001']);
  });

  it('leaves a member no wave takes out (-1)', () => {
    const waves = assignWaves([{ name: 'canary', selector: [{ key: 'ring', value: 'canary' }] }], members);
    expect(waves.get('store-000')).toBe(-1);
  });

  it.each([
    ['3', 50, 3],
    ['10%', 50, 5],
    ['10%', 5, 1], // never below min
    ['0', 5, 0],
    ['25%', 10, 2],
  ])('countOf(%s of %i) is %i', (value, total, want) => {
    expect(countOf(value, total, { min: value === '0' ? 0 : 1 })).toBe(want);
  });
});

describe('decideRollout: waves in order', () => {
  it('releases the canary first, the next wave only once the canary succeeded and baked', () => {
    let s = { rollout: rollout(), members: fleet(20) };
    let d = step(s, T0);
    s = d;
    expect(releasedNames(d.decision)).toEqual(['canary-1', 'canary-2']);
    expect(d.decision.releases[0]!.release).toEqual({
      revision: `env/prod@sha1:${SHA}`,
      rollout: 'prod-aaaa',
      wave: 0,
      releasedAt: '2026-11-28T10:00:00Z',
    });
    expect(d.decision.status.phase).toBe('Progressing');
    // Nothing more while the canaries apply.
    d = step(s, T0 + MIN);
    expect(d.decision.releases).toEqual([]);
    // The canaries succeed: the wave completes, then bakes for 10 minutes.
    s = { ...d, members: agentsApply(d.members) };
    d = step(s, T0 + 2 * MIN);
    s = d;
    expect(d.decision.releases).toEqual([]);
    expect(d.decision.status.waves![0]).toMatchObject({
      state: 'Baking',
      succeeded: 2,
      completedAt: '2026-11-28T10:02:00Z',
    });
    expect(d.decision.nextCheckAt).toBe(T0 + 12 * MIN);
    expect(step(s, T0 + 12 * MIN - 1).decision.releases).toEqual([]);
    d = step(s, T0 + 12 * MIN);
    expect(d.decision.releases).toHaveLength(2);
    expect(d.decision.releases.every((r) => r.release.wave === 1)).toBe(true);
    expect(d.decision.status.currentWave).toBe(1);
  });

  it('rolls through every wave to Succeeded', () => {
    let s = { rollout: rollout(spec({ bakeSeconds: 0 })), members: fleet(20) };
    for (let i = 0; i < 8; i++) {
      const d = step(s, T0 + i * MIN);
      s = { ...d, members: agentsApply(d.members) };
    }
    const last = decideRollout(s.rollout, s.members, T0 + 9 * MIN);
    expect(last.status.phase).toBe('Succeeded');
    expect(last.status.members!.every((m) => m.state === 'Succeeded')).toBe(true);
    expect(last.status.waves!.map((w) => w.state)).toEqual(['Completed', 'Completed', 'Completed']);
  });

  it('counts a report left over from the previous revision as nothing (argo-cd#29410)', () => {
    // Released, Ready and Healthy, but at the old commit: not succeeded.
    const s = step({ rollout: rollout(), members: fleet(4) }, T0);
    const d = decideRollout(s.rollout, s.members, T0 + MIN);
    expect(d.status.members!.find((m) => m.name === 'canary-1')).toMatchObject({
      state: 'Released',
      reason: 'NotApplied',
    });
    expect(d.status.waves![0]!.state).toBe('Progressing');
  });

  it('keeps within maxUnavailable: members in flight, never more', () => {
    const s = step(
      { rollout: rollout(spec({ waves: [{ name: 'all' }], maxUnavailable: '3' })), members: fleet(10) },
      T0,
    );
    expect(s.decision.releases).toHaveLength(3);
    expect(s.decision.status.members!.filter((m) => m.reason === 'MaxUnavailable')).toHaveLength(9);
    const next = step({ ...s, members: agentsApply(s.members) }, T0 + MIN);
    expect(next.decision.releases).toHaveLength(3);
  });

  it('takes a maxUnavailable percentage of the environment, at least one', () => {
    const s = step(
      { rollout: rollout(spec({ waves: [{ name: 'all' }], maxUnavailable: '10%' })), members: fleet(3) },
      T0,
    );
    expect(s.decision.releases).toHaveLength(1);
  });

  it('ignores members of other environments and FleetMembers outside their own namespace', () => {
    const odd = { ...member('store-x'), namespace: 'member-other' };
    const d = decideRollout(
      rollout(spec({ waves: [{ name: 'all' }] })),
      [member('dev-1', { environment: 'dev' }), odd],
      T0,
    );
    expect(d.releases).toEqual([]);
    expect(d.status.members).toEqual([]);
  });

  it('puts a member that registered mid-rollout in the last wave', () => {
    let s = step({ rollout: rollout(spec({ bakeSeconds: 0 })), members: fleet(4) }, T0);
    s = step({ ...s, members: [...s.members, member('late')] }, T0 + MIN);
    expect(s.decision.status.members!.find((m) => m.name === 'late')).toMatchObject({
      wave: 2,
      state: 'Pending',
    });
  });

  it('records a member whose FleetMember went away as Gone', () => {
    const s = step({ rollout: rollout(), members: fleet(4) }, T0);
    const d = decideRollout(
      s.rollout,
      s.members.filter((m) => m.name !== 'store-001'),
      T0 + MIN,
    );
    expect(d.status.members!.find((m) => m.name === 'store-001')?.state).toBe('Gone');
  });
});

describe('decideRollout: failures and halts', () => {
  it('halts on a failing canary before any other member is released', () => {
    let s = step({ rollout: rollout(spec({ maxFailures: '50%', bakeSeconds: 0 })), members: fleet(10) }, T0);
    s = step(
      {
        ...s,
        members: agentsApply(s.members, (n) =>
          n === 'canary-2'
            ? report(SHA, {
                ready: { status: 'False', reason: 'HealthCheckFailed', message: 'Deployment/web: Degraded' },
              })
            : report(SHA),
        ),
      },
      T0 + MIN,
    );
    expect(s.decision.halt?.reason).toBe('CanaryFailed');
    expect(s.decision.status.phase).toBe('Halted');
    expect(s.decision.status.halted?.message).toContain('canary-2 (HealthCheckFailed)');
    expect(s.decision.releases).toEqual([]);
    // However long it waits, and whatever the members report, nothing more is released.
    for (let i = 2; i < 10; i++) {
      s = step({ ...s, members: agentsApply(s.members) }, T0 + i * 60 * MIN);
      expect(s.decision.releases).toEqual([]);
      expect(s.decision.halt).toBeUndefined(); // halted once, reported once
    }
    expect(
      s.members
        .filter((m) => m.spec.release)
        .map((m) => m.name)
        .sort(),
    ).toEqual(['canary-1', 'canary-2']);
  });

  it.each([
    [
      'SynthFailed at the attempted commit',
      report(OLD, {
        revision: { applied: `env/prod@sha1:${OLD}`, attempted: `env/prod@sha1:${SHA}` },
        ready: { status: 'False', reason: 'SynthFailed' },
      }),
      'SynthFailed',
    ],
    [
      'a Degraded health at the commit',
      report(SHA, {
        ready: { status: 'False', reason: 'WaitingForHealth' },
        health: { status: 'Degraded', reason: 'CrashLoop' },
      }),
      'HealthCheckFailed',
    ],
    [
      'the agent refusing the release (not a commit of its ref)',
      report(OLD, {
        revision: { applied: `env/prod@sha1:${OLD}`, attempted: `env/prod@sha1:${SHA}` },
        ready: { status: 'False', reason: 'ReleaseRefused' },
      }),
      'ReleaseRefused',
    ],
  ])('fails a member on %s', (_, r, reason) => {
    const s = step({ rollout: rollout(), members: fleet(2) }, T0);
    const d = decideRollout(
      s.rollout,
      agentsApply(s.members, () => r),
      T0 + MIN,
    );
    expect(d.status.members!.find((m) => m.name === 'canary-1')).toMatchObject({ state: 'Failed', reason });
  });

  it('waits through a transient failure, then fails it at the progress deadline', () => {
    const s = step({ rollout: rollout(spec({ progressDeadlineSeconds: 600 })), members: fleet(2) }, T0);
    const members = agentsApply(s.members, () =>
      report(OLD, {
        revision: { attempted: `env/prod@sha1:${SHA}` },
        ready: { status: 'False', reason: 'ApplyFailed' },
      }),
    );
    const early = decideRollout(s.rollout, members, T0 + 5 * MIN);
    expect(early.status.members![0]).toMatchObject({ state: 'Released', reason: 'ApplyFailed' });
    expect(early.nextCheckAt).toBe(T0 + 10 * MIN + 1000);
    const late = decideRollout(s.rollout, members, T0 + 10 * MIN + 1000);
    expect(late.status.members![0]).toMatchObject({ state: 'Failed', reason: 'ProgressDeadlineExceeded' });
    expect(late.halt?.reason).toBe('CanaryFailed');
  });

  it('tolerates maxFailures after the canary, halts on one more', () => {
    const wave = {
      waves: [{ name: 'canary', selector: [{ key: 'ring', value: 'canary' }] }, { name: 'rest' }],
    };
    let s = { rollout: rollout(spec({ ...wave, maxFailures: '1', bakeSeconds: 0 })), members: fleet(4) };
    s = step(s, T0);
    s = step({ ...s, members: agentsApply(s.members) }, T0 + MIN); // canaries succeed, wave 1 released
    const bad = (names: string[]) => (n: string) =>
      names.includes(n)
        ? report(SHA, { ready: { status: 'False', reason: 'HealthCheckFailed' } })
        : report(SHA);
    const one = step({ ...s, members: agentsApply(s.members, bad(['store-000'])) }, T0 + 2 * MIN);
    expect(one.decision.halt).toBeUndefined();
    const two = step(
      { ...s, members: agentsApply(s.members, bad(['store-000', 'store-001'])) },
      T0 + 2 * MIN,
    );
    expect(two.decision.halt?.reason).toBe('MaxFailuresExceeded');
  });

  it('completes a wave whose failures stay within maxFailures, and releases the next one', () => {
    const waves = [
      { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
      { name: 'mid', percent: 50 },
      { name: 'rest' },
    ];
    const first = step(
      { rollout: rollout(spec({ waves, maxFailures: '1', bakeSeconds: 0 })), members: fleet(4) },
      T0,
    );
    const s = step({ ...first, members: agentsApply(first.members) }, T0 + MIN); // mid released
    const mid = s.decision.releases.map((r) => r.member);
    expect(mid).toHaveLength(2);
    const bad = (n: string) =>
      n === mid[0] ? report(SHA, { ready: { status: 'False', reason: 'HealthCheckFailed' } }) : report(SHA);
    const failed = step({ ...s, members: agentsApply(s.members, bad) }, T0 + 2 * MIN);
    expect(failed.decision.halt).toBeUndefined();
    expect(failed.decision.status.members!.find((m) => m.name === mid[0])?.state).toBe('Failed');
    // One failure of one allowed: the mid wave is done, and the rest is released.
    const rest = failed.decision.releases.map((r) => r.member);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.some((m) => mid.includes(m))).toBe(false);
  });

  it('records a failure for good, even when the member recovers', () => {
    let s = step({ rollout: rollout(spec({ maxFailures: '5' })), members: fleet(2) }, T0);
    s = step(
      {
        ...s,
        members: agentsApply(s.members, () =>
          report(SHA, { ready: { status: 'False', reason: 'HealthCheckFailed' } }),
        ),
      },
      T0 + MIN,
    );
    const d = decideRollout(s.rollout, agentsApply(s.members), T0 + 2 * MIN);
    expect(d.status.members![0]!.state).toBe('Failed');
  });
});

describe('decideRollout: bounds', () => {
  it('halts before releasing anything when the environment has more members than a status can list', () => {
    const d = decideRollout(rollout(), fleet(5000), T0);
    expect(d.halt?.reason).toBe('TooManyMembers');
    expect(d.releases).toEqual([]);
    expect(d.status.members).toHaveLength(5000);
  });
});

describe('decideRollout: gates that hold members back', () => {
  const mc = spec({ changes: ['machine-config'], waves: [{ name: 'all' }] });
  const updatingPool = report(OLD, {
    openshift: {
      pools: [
        { name: 'worker', machines: 3, updated: 1, ready: 1, degraded: 0, updating: true, paused: false },
      ],
    },
  });

  it.each([
    ['a MachineConfigPool updating', member('m', { report: updatingPool }), 'PoolUpdating'],
    [
      'a ClusterVersion update in progress',
      member('m', {
        report: report(OLD, {
          openshift: { version: { current: '4.15.1', target: '4.15.3', progressing: true } },
        }),
      }),
      'ClusterVersionUpdating',
    ],
    ['a label naming no window', member('m', { labels: { 'maintenance-window': 'nope' } }), 'UnknownWindow'],
    ['Unreachable', member('m', { reachability: 'Unreachable' }), 'Unreachable'],
    ['a suspended agent', member('m', { report: report(OLD, { suspended: true }) }), 'Suspended'],
  ])('holds a member for a MachineConfig revision: %s', (_, m, reason) => {
    const d = decideRollout(rollout({ ...mc, windowLabel: 'maintenance-window' }), [m], T0);
    expect(d.releases).toEqual([]);
    expect(d.held).toEqual([expect.objectContaining({ member: 'm', reason })]);
  });

  it('releases to a member with a pool updating when the revision changes no MachineConfig', () => {
    const d = decideRollout(
      rollout(spec({ waves: [{ name: 'all' }] })),
      [member('m', { report: updatingPool })],
      T0,
    );
    expect(releasedNames(d)).toEqual(['m']);
  });

  it('holds a member outside its named window until it opens, and looks again then', () => {
    // T0 is Saturday 10:00 UTC; the stores' window opens Saturday 22:00 UTC.
    const s = {
      ...mc,
      windowLabel: 'maintenance-window',
      windows: [{ name: 'stores', windows: [{ days: ['Sat' as const], start: '22:00', duration: '4h' }] }],
    };
    const store = member('store', { labels: { 'maintenance-window': 'stores' } });
    const other = member('other');
    const d = decideRollout(rollout(s), [store, other], T0);
    expect(releasedNames(d)).toEqual(['other']); // no label, no environment windows: any time
    expect(d.held).toEqual([expect.objectContaining({ member: 'store', reason: 'OutsideWindow' })]);
    expect(d.nextCheckAt).toBe(T0 + 30 * MIN + 1000); // the deadline of `other` comes first
    expect(decideRollout(rollout(s), [store], T0).nextCheckAt).toBe(Date.parse('2026-11-28T22:00:00Z'));
    expect(releasedNames(decideRollout(rollout(s), [store], Date.parse('2026-11-28T22:30:00Z')))).toEqual([
      'store',
    ]);
  });

  it('uses the environment windows for a member without a window label', () => {
    const s = { ...mc, defaultWindows: [{ start: '02:00', duration: '1h' }] };
    expect(decideRollout(rollout(s), [member('m')], T0).held[0]?.reason).toBe('OutsideWindow');
  });

  it('does not let an unreachable member hold a later wave (Rancher Fleet waits for it)', () => {
    const waves = [
      { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
      { name: 'mid', percent: 50 },
      { name: 'rest' },
    ];
    const first = step({ rollout: rollout(spec({ waves, bakeSeconds: 0 })), members: fleet(4) }, T0);
    const s = step({ ...first, members: agentsApply(first.members) }, T0 + MIN);
    const mid = s.decision.releases.map((r) => r.member);
    expect(mid).toHaveLength(2);
    // One of the mid wave goes offline before it applied; the other succeeds.
    const offline = mid[0]!;
    const members = agentsApply(s.members).map((m) =>
      m.name === offline ? member(offline, { release: m.spec.release!, reachability: 'Unreachable' }) : m,
    );
    // Released but unreachable: in flight until the deadline, so released members count; an
    // unreachable member not yet released does not.
    const d = step({ ...s, members }, T0 + 2 * MIN);
    expect(d.decision.status.members!.find((m) => m.name === offline)?.state).toBe('Released');
    const unreleased = fleet(4).map((m) =>
      m.name === 'store-003' ? member('store-003', { reachability: 'Unreachable' }) : m,
    );
    let t = {
      rollout: rollout(spec({ waves: [waves[0]!, { name: 'rest' }], bakeSeconds: 0 })),
      members: unreleased,
    };
    t = step(t, T0);
    t = step({ ...t, members: agentsApply(t.members) }, T0 + MIN);
    t = step({ ...t, members: agentsApply(t.members) }, T0 + 2 * MIN);
    const done = decideRollout(t.rollout, t.members, T0 + 3 * MIN);
    expect(done.status.phase).toBe('Completed');
    expect(done.status.message).toContain('store-003 (Unreachable)');
    // Back: released at once.
    const back = decideRollout(
      t.rollout,
      t.members.map((m) => (m.name === 'store-003' ? member('store-003') : m)),
      T0 + 4 * MIN,
    );
    expect(releasedNames(back)).toEqual(['store-003']);
  });

  it('keeps an unreachable canary holding the first wave', () => {
    const members = fleet(4).map((m) =>
      m.name === 'canary-2'
        ? member('canary-2', { labels: { ring: 'canary' }, reachability: 'Unreachable' })
        : m,
    );
    let s = step({ rollout: rollout(spec({ bakeSeconds: 0 })), members }, T0);
    s = step({ ...s, members: agentsApply(s.members) }, T0 + MIN);
    expect(s.decision.releases).toEqual([]);
    expect(s.decision.status.waves![0]!.state).toBe('Progressing');
  });
});

describe('decideRollout: pause, resume, abort', () => {
  it('releases nothing while paused, and goes on after resume', () => {
    const paused = step({ rollout: rollout(spec({ paused: true })), members: fleet(4) }, T0);
    expect(paused.decision.releases).toEqual([]);
    expect(paused.decision.status.phase).toBe('Paused');
    const resumed = step({ rollout: rollout(spec()), members: fleet(4) }, T0);
    expect(releasedNames(resumed.decision)).toEqual(['canary-1', 'canary-2']);
  });

  it('releases nothing once aborted or superseded, for good', () => {
    const s = step({ rollout: rollout(), members: fleet(4) }, T0);
    const aborted = decideRollout(
      { ...s.rollout, spec: { ...s.rollout.spec, aborted: true } },
      agentsApply(s.members),
      T0 + 60 * MIN,
    );
    expect(aborted.releases).toEqual([]);
    expect(aborted.status.phase).toBe('Aborted');
    const superseded = decideRollout(s.rollout, agentsApply(s.members), T0 + 60 * MIN, {
      supersededBy: 'prod-bbbb',
    });
    expect(superseded.releases).toEqual([]);
    expect(superseded.status.message).toBe('superseded by rollout prod-bbbb');
  });
});

describe('decideRollout: properties', () => {
  const memberArb = fc.record({
    canary: fc.boolean(),
    reachable: fc.boolean(),
    outcome: fc.constantFrom('ok', 'fail', 'slow', 'stale'),
  });
  const fleetArb = fc.array(memberArb, { minLength: 1, maxLength: 25 });
  const specArb = fc.record({
    maxUnavailable: fc.constantFrom('1', '3', '50%', '100%'),
    maxFailures: fc.constantFrom('0', '1', '20%'),
    bakeSeconds: fc.constantFrom(0, 300),
    paused: fc.boolean(),
  });

  function play(ms: Arb<typeof fleetArb>, sp: Arb<typeof specArb>, steps: number) {
    const members = ms.map((m, i) =>
      member(`m-${i}`, {
        labels: m.canary ? { ring: 'canary' } : {},
        reachability: m.reachable ? 'Reachable' : 'Unreachable',
      }),
    );
    const outcome = (name: string) => {
      const o = ms[Number(name.slice(2))]!.outcome;
      return o === 'ok'
        ? report(SHA)
        : o === 'fail'
          ? report(SHA, { ready: { status: 'False', reason: 'HealthCheckFailed' } })
          : o === 'slow'
            ? report(SHA, { ready: { status: 'False', reason: 'WaitingForHealth' } })
            : report(OLD);
    };
    let s = { rollout: rollout(spec({ ...sp, paused: false })), members };
    const seen: ReturnType<typeof step>[] = [];
    for (let i = 0; i < steps; i++) {
      const paused = sp.paused && i % 3 === 1;
      const d = step(
        { ...s, rollout: { ...s.rollout, spec: { ...s.rollout.spec, paused } } },
        T0 + i * 7 * MIN,
      );
      seen.push(d);
      s = { rollout: { ...d.rollout, spec: s.rollout.spec }, members: agentsApply(d.members, outcome) };
    }
    return seen;
  }

  it('never releases a member outside a wave that has started', () => {
    fc.assert(
      fc.property(fleetArb, specArb, (ms, sp) => {
        for (const d of play(ms, sp, 12)) {
          const st = d.decision.status;
          for (const r of d.decision.releases) {
            expect(r.release.wave).toBeLessThanOrEqual(st.currentWave!);
            const assigned = st.members!.find((m) => m.name === r.member)!;
            expect(assigned.wave).toBe(r.release.wave);
            // Every earlier wave completed, and baked.
            for (let w = 0; w < r.release.wave; w++) {
              const done = Date.parse(st.waves![w]!.completedAt!);
              expect(done + (w < r.release.wave ? d.rollout.spec.bakeSeconds * 1000 : 0)).toBeLessThanOrEqual(
                Date.parse(st.updatedAt!),
              );
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('releases nothing once halted, and nothing while paused; never more than maxUnavailable in flight', () => {
    fc.assert(
      fc.property(fleetArb, specArb, (ms, sp) => {
        let halted = false;
        for (const d of play(ms, sp, 12)) {
          if (halted || d.rollout.spec.paused) expect(d.decision.releases).toEqual([]);
          if (d.decision.status.phase === 'Halted') halted = true;
          const inFlight = d.decision.status.members!.filter((m) => m.state === 'Released').length;
          const total = d.decision.status.members!.filter((m) => m.state !== 'Gone').length;
          const cap = Math.max(
            1,
            /%$/.test(sp.maxUnavailable)
              ? Math.floor((total * parseInt(sp.maxUnavailable)) / 100)
              : Number(sp.maxUnavailable),
          );
          if (d.decision.releases.length > 0) expect(inFlight).toBeLessThanOrEqual(cap);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('never releases beyond the canary while any canary failed', () => {
    fc.assert(
      fc.property(fleetArb, specArb, (ms, sp) => {
        for (const d of play(ms, sp, 12)) {
          const canaryFailed = d.decision.status.members!.some((m) => m.wave === 0 && m.state === 'Failed');
          if (canaryFailed) expect(d.decision.releases.filter((r) => r.release.wave > 0)).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  });
});
