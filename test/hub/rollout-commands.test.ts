import { describe, expect, it } from 'vitest';
import { parseChanges } from '../../src/cli/actions/fleet-rollout.js';
import { hasCode } from '../../src/core/errors.js';
import { rolloutSpecOf } from '../../src/hub/rollout-commands.js';
import { readFleetRollout, rolloutSpecSchema } from '../../src/hub/rollout-schema.js';
import { rolloutText, rolloutsText } from '../../src/hub/rollout-text.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';
import { decideRollout } from '../../src/hub/rollout-decision.js';
import { SHA, T0, fleet, report, rollout, spec } from './rollout-fixtures.js';

const prod = (rolloutYaml: unknown) =>
  toEnvironments(
    environmentsSchema.parse([
      {
        name: 'prod',
        overlays: ['prod'],
        ref: 'env/prod',
        windows: [{ start: '02:00', duration: '2h' }],
        rollout: rolloutYaml,
      },
    ]),
  )[0]!;

describe('environments[].rollout', () => {
  it('fills the defaults and is copied into a FleetRollout spec the CRD schema accepts', () => {
    const env = prod({
      waves: [
        { name: 'canary', selector: { ring: 'canary' } },
        { name: 'ten', percent: 10 },
        { name: 'rest' },
      ],
      maxUnavailable: 3,
      bakeTime: '1h30m',
      windows: [{ name: 'stores', windows: [{ days: ['Sun'], start: '01:00', duration: '3h' }] }],
    });
    const s = rolloutSpecOf(env, SHA, ['machine-config', 'machine-config']);
    expect(s).toEqual({
      environment: 'prod',
      ref: 'env/prod',
      revision: SHA,
      changes: ['machine-config'],
      waves: [
        { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
        { name: 'ten', percent: 10 },
        { name: 'rest' },
      ],
      maxUnavailable: '3',
      maxFailures: '0',
      bakeSeconds: 5400,
      progressDeadlineSeconds: 1800,
      windowLabel: 'maintenance-window',
      windows: [{ name: 'stores', windows: [{ days: ['Sun'], start: '01:00', duration: '3h' }] }],
      defaultWindows: [{ start: '02:00', duration: '2h' }],
    });
    expect(rolloutSpecSchema.parse(s)).toEqual(s);
  });

  it.each([
    [{ waves: [] }, 'list at least one wave'],
    [{ waves: [{ name: 'a' }, { name: 'a' }] }, 'wave a is listed twice'],
    [{ waves: [{ name: 'a', percent: 0 }] }, 'waves'],
    [{ waves: [{ name: 'a' }], maxUnavailable: '150%' }, 'a count (3) or a percentage'],
    [{ waves: [{ name: 'a' }], progressDeadline: '10s' }, 'progressDeadline must be a duration'],
    [{ waves: [{ name: 'a' }], bakeTime: '9999h' }, 'bakeTime must be a duration'],
    [{ waves: [{ name: 'a' }], surprise: true }, 'surprise'],
    [{ waves: Array.from({ length: 21 }, (_, i) => ({ name: `w${i}` })) }, 'waves'],
  ])('refuses %j', (value, words) => {
    const parsed = environmentsSchema.safeParse([
      { name: 'prod', overlays: ['prod'], ref: 'main', rollout: value },
    ]);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).toContain(words);
  });

  it('refuses an environment without rollout and a revision that is not a full commit id', () => {
    const bare = toEnvironments(
      environmentsSchema.parse([{ name: 'prod', overlays: ['prod'], ref: 'main' }]),
    )[0]!;
    expect(() => rolloutSpecOf(bare, SHA, [])).toThrow(expect.objectContaining({ code: 'RolloutRefused' }));
    expect(() => rolloutSpecOf(prod({ waves: [{ name: 'a' }] }), 'HEAD', [])).toThrow(/not a full commit id/);
  });
});

describe('parseChanges', () => {
  it('takes the two kinds, refuses anything else', () => {
    expect(parseChanges('cluster-version, machine-config')).toEqual(['cluster-version', 'machine-config']);
    expect(parseChanges(undefined)).toEqual([]);
    try {
      parseChanges('machine-config,operators');
      expect.unreachable();
    } catch (err) {
      expect(hasCode(err, 'InvalidFlag')).toBe(true);
    }
  });
});

describe('rolloutText', () => {
  it('shows the phase, waves and the members that need a look first, without control characters', () => {
    const members = fleet(3);
    const first = decideRollout(rollout(), members, T0);
    const released = members.map((m) =>
      m.name === 'canary-1'
        ? {
            ...m,
            spec: { ...m.spec, release: first.releases[0]!.release },
            report: report(SHA, {
              ready: {
                status: 'False',
                reason: 'HealthCheckFailed',
                message: 'web\u001b[2J\u001b]0;pwned\u0007 down',
              },
            }),
          }
        : m,
    );
    const halted = decideRollout({ ...rollout(), status: first.status }, released, T0 + 60_000);
    const text = rolloutText({ ...rollout(), status: halted.status });
    expect(text).toContain('phase: Halted');
    expect(text).toContain('halted: CanaryFailed');
    expect(text).toMatch(/canary-1\s+canary\s+Failed\s+HealthCheckFailed\s+web/);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.indexOf('canary-1')).toBeLessThan(text.indexOf('store-000'));
    expect(rolloutsText([{ ...rollout(), status: halted.status }])).toMatch(
      /prod-aaaa\s+prod\s+aaaaaaaaaaaa\s+Halted\s+canary/,
    );
  });

  it('reads back what it wrote (a status this version cannot read is dropped, not fatal)', () => {
    const obj = { metadata: { name: 'prod-aaaa' }, spec: spec(), status: { phase: 'Exploded' } };
    expect(readFleetRollout(obj).status).toBeUndefined();
  });
});
