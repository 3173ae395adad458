import { describe, expect, it } from 'vitest';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { readFleetRollout } from '../../src/hub/rollout-schema.js';
import type { FleetState } from '../../src/ui/fleet-state.js';
import { parseFleetSelector } from '../../src/ui/fleet-selector.js';
import { fleetPage } from '../../src/ui/pages/fleet.js';
import { hostileSnapshot } from './fixtures.js';

const REV = 'b'.repeat(40);

function member(name: string, labels: Record<string, string>, ready: 'True' | 'False', drift = 0) {
  return readFleetMember({
    metadata: { name, namespace: `member-${name}`, labels },
    spec: { environment: 'prod' },
    status: {
      sequence: 1,
      reportedAt: '2026-11-28T07:00:00Z',
      revision: { applied: `env/prod@sha1:${REV}` },
      ready: { status: ready, reason: ready === 'True' ? 'Applied' : 'HealthDegraded' },
      drift: { count: drift },
    },
  });
}

const ROLLOUT = readFleetRollout({
  metadata: { name: 'prod-rev2', creationTimestamp: '2026-11-28T07:00:00Z' },
  spec: {
    environment: 'prod',
    ref: 'env/prod',
    revision: REV,
    waves: [
      { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
      { name: 'rest', percent: 100 },
    ],
    maxUnavailable: '1',
    maxFailures: '0',
    bakeSeconds: 60,
    progressDeadlineSeconds: 600,
  },
  status: {
    phase: 'Progressing',
    waves: [
      { name: 'canary', state: 'Completed', members: 1, succeeded: 1, failed: 0, held: 0 },
      { name: 'rest', state: 'Progressing', members: 3, succeeded: 0, failed: 1, held: 1 },
    ],
    members: [
      { name: 'c1', wave: 0, state: 'Succeeded' },
      { name: 'r1', wave: 1, state: 'Released' },
      { name: 'r2', wave: 1, state: 'Held', reason: 'OutsideWindow', message: 'window closed until 22:00' },
      { name: 'r3', wave: 1, state: 'Failed', reason: 'NotReady', message: 'HealthDegraded' },
    ],
  },
});

function page(selector?: string): string {
  const fleet: FleetState = {
    reading: false,
    intervalMs: 0,
    hub: {
      members: [
        member('c1', { ring: 'canary', region: 'eu' }, 'True'),
        member('r1', { region: 'eu' }, 'True', 2),
        member('r2', { region: 'us' }, 'False'),
      ],
      rollouts: [ROLLOUT],
      problems: [],
      watching: true,
    },
  };
  return fleetPage({ ...hostileSnapshot(), fleet }, { selector: selector ?? null }).markup;
}

describe('the Fleet page from the hub', () => {
  it('draws each wave with succeeded, in flight, held and failed, and what holds each member', () => {
    const p = page();
    expect(p).toMatch(/data-wave="rest">[\s\S]*?>3<[\s\S]*?>0<[\s\S]*?>1<[\s\S]*?>1<[\s\S]*?>1</);
    expect(p).toMatch(/data-held="r2">[\s\S]*?OutsideWindow: window closed until 22:00/);
    expect(p).toMatch(/data-held="r3">[\s\S]*?Failed[\s\S]*?NotReady/);
    expect(p).not.toContain('data-held="r1"');
    expect(p).toContain('env/prod@bbbbbbbbbbbb');
  });

  it('lists every member without a selector, only the matching ones with one', () => {
    expect(page().match(/data-member=/g)).toHaveLength(3);
    const eu = page('region=eu');
    expect(eu).toContain('data-member="c1"');
    expect(eu).toContain('data-member="r1"');
    expect(eu).not.toContain('data-member="r2"');
    expect(eu).toContain('2 of 3 member(s) match');
    const notCanary = page('region=eu,!ring');
    expect(notCanary.match(/data-member=/g)).toHaveLength(1);
  });

  it('says so when the selector matches nothing', () => {
    const p = page('region=mars');
    expect(p).not.toContain('data-member=');
    expect(p).toContain('No member matches.');
  });

  it('says a refused selector is refused and filters nothing', () => {
    const p = page('region=eu=x');
    expect(p).toContain('The selector is refused (term 1: not a label value)');
    expect(p.match(/data-member=/g)).toHaveLength(3);
  });
});

describe('parseFleetSelector', () => {
  it('reads equality, inequality, existence and absence', () => {
    expect(parseFleetSelector('a=b, c==d,e!=f,g,!h')).toEqual({
      ok: true,
      text: 'a=b, c==d,e!=f,g,!h',
      selector: {
        matchLabels: { a: 'b', c: 'd' },
        matchExpressions: [
          { key: 'e', operator: 'NotIn', values: ['f'] },
          { key: 'g', operator: 'Exists' },
          { key: 'h', operator: 'DoesNotExist' },
        ],
      },
    });
    expect(parseFleetSelector(null)).toEqual({ ok: true, selector: {}, text: '' });
  });

  it.each([
    '=b',
    'a b=c',
    '!a=b',
    'a=b,',
    'a in (b)',
    'a=b,a=c',
    'x'.repeat(64) + '=1',
    `a=${'v'.repeat(64)}`,
  ])('refuses %j', (q) => expect(parseFleetSelector(q).ok).toBe(false));

  it('refuses too many terms and too long a query', () => {
    expect(parseFleetSelector(Array.from({ length: 17 }, (_, i) => `k${i}=v`).join(','))).toMatchObject({
      ok: false,
    });
    expect(parseFleetSelector(`a=${'b'.repeat(2000)}`)).toMatchObject({ ok: false });
  });
});
