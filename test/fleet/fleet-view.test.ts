import { describe, expect, it } from 'vitest';
import { fleetView } from '../../src/fleet/fleet-view.js';
import type { ClusterObservation } from '../../src/fleet/gates.js';
import type { Environment } from '../../src/project/environments.js';
import { healthyStaging } from '../harness/promotion.js';

const C1 = '1'.repeat(40);
const env = (e: Partial<Environment> & Pick<Environment, 'name' | 'overlays' | 'ref'>): Environment => ({
  soak: '0s',
  soakMs: 0,
  windows: [],
  ...e,
});
const ENVS = [
  env({ name: 'dev', overlays: ['dev'], ref: 'main' }),
  env({
    name: 'staging',
    overlays: ['staging'],
    ref: 'env/staging',
    promotedFrom: 'dev',
    soak: '30m',
    soakMs: 1_800_000,
  }),
  env({
    name: 'prod',
    overlays: ['prod', 'prod-eu'],
    ref: 'env/prod',
    promotedFrom: 'staging',
    windows: [{ days: ['Sat'], start: '02:00', duration: '4h', timezone: 'UTC' }],
  }),
];
const down: ClusterObservation = {
  cluster: 'prod-1',
  context: 'prod-1',
  error: 'connect ECONNREFUSED',
  syncs: [],
};

describe('fleetView (the Fleet page data, from fleet status rows)', () => {
  const view = fleetView({
    platform: 'p',
    environments: ENVS,
    observations: [healthyStaging(C1), down],
    behind: new Map([[`env/staging@${C1}`, 2]]),
    promotions: new Map([['prod', { error: 'git: not found' }]]),
    problems: ['cannot count commits behind: x'],
    // A Wednesday: prod's Saturday window is closed.
    now: new Date('2026-11-25T12:00:00Z'),
  });

  it('groups rows by environment in groundwork.yaml order, with commits behind', () => {
    expect(view.environments.map((e) => e.name)).toEqual(['dev', 'staging', 'prod']);
    const staging = view.environments[1]!;
    expect(staging.rows).toMatchObject([
      { cluster: 'staging-1', overlay: 'staging', behind: 2, ready: 'True' },
    ]);
    expect(staging.promotedFrom).toBe('dev');
    expect(staging.missing).toEqual([]);
  });

  it('names overlays no cluster reports, and the environments promoted from each', () => {
    expect(view.environments[0]!.missing).toEqual(['dev']);
    expect(view.environments[2]!.missing).toEqual(['prod', 'prod-eu']);
    expect(view.environments.map((e) => e.promotesTo)).toEqual([['staging'], ['prod'], []]);
  });

  it('puts unreachable clusters apart (their environment is unknown), with the reason', () => {
    expect(view.others).toMatchObject([
      { cluster: 'prod-1', ready: 'Unreachable', error: 'connect ECONNREFUSED' },
    ]);
  });

  it("gives each environment's windows at the time of the read, and its promotion", () => {
    expect(view.environments[0]!.window).toBeUndefined();
    expect(view.environments[2]!.window).toEqual({
      open: false,
      reason: 'closed: next window Sat 02:00+4h UTC opens at 2026-11-28T02:00:00.000Z',
    });
    expect(view.environments[2]!.next).toEqual({ error: 'git: not found' });
    expect(view.environments[1]!.next).toBeUndefined();
    expect(view.problems).toEqual(['cannot count commits behind: x']);
  });
});
