import { describe, expect, it } from 'vitest';
import { healthyStaging } from '../harness/promotion.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';
import { promote, promotionText, type PromotionDeps, type PromotionGit } from '../../src/fleet/promotion.js';

// Pure decisions of a promotion, with the cluster reads and git as plain fakes (the e2e test
// promote.e2e.test.ts runs the same through three control planes and a git server).
const ENVS = toEnvironments(
  environmentsSchema.parse([
    { name: 'staging', overlays: ['staging'], ref: 'env/staging' },
    {
      name: 'prod',
      overlays: ['prod'],
      ref: 'env/prod',
      promotedFrom: 'staging',
      // Saturdays 02:00-06:00 UTC.
      windows: [{ days: ['Sat'], start: '02:00', duration: '4h', timezone: 'UTC' }],
    },
  ]),
);
const R = 'c'.repeat(40);
const OLD = 'b'.repeat(40);
const healthy = healthyStaging(R);

function deps(now: string, risky: { code: string; subject: string }[]) {
  const pushed: { branch: string; commit: string; tag?: { name: string; message: string } }[] = [];
  const asked: string[] = [];
  const git: PromotionGit = {
    dir: '/nonexistent',
    fetchBranch: async (b) => (b === 'env/staging' ? R : OLD),
    contains: async () => true,
    stateOf: async (_c, head) => ({ head, fastForward: true, ahead: 2 }),
    push: async (branch, commit, tag) => {
      pushed.push({ branch, commit, ...(tag ? { tag } : {}) });
    },
    dispose: async () => {},
  };
  const d: PromotionDeps = {
    observe: async () => [healthy],
    openGit: async () => git,
    riskyChanges: async (_dir, base, head) => {
      asked.push(`${base.slice(0, 4)}..${head.slice(0, 4)}`);
      return risky.map((r) => ({ ...r, message: '' }));
    },
    now: () => new Date(now),
  };
  return { d, pushed, asked };
}

const request = { platform: 'p', environments: ENVS, target: 'prod', dryRun: false };

describe('promotion windows', () => {
  it('refuse a MachineConfig or ClusterVersion change outside every window of the target', async () => {
    const { d, pushed, asked } = deps('2026-11-25T12:00:00Z' /* a Wednesday */, [
      { code: 'MachineConfigPoolRolls', subject: 'MachineConfigPool/worker [prod]' },
    ]);
    const r = await promote(request, d);
    expect(asked).toEqual(['bbbb..cccc']);
    expect(r.outcome).toBe('refused');
    const window = r.gates.find((g) => g.gate === 'Window')!;
    expect(window.passed).toBe(false);
    expect(window.failures[0]!.message).toContain(
      'changes MachineConfigPool/worker [prod] (MachineConfigPoolRolls)',
    );
    expect(window.failures[0]!.message).toContain('Sat 02:00+4h UTC');
    expect(pushed).toEqual([]);
    expect(promotionText(r)).toContain('FAIL Window');
  });

  it('let the same change through inside a window, and record the promotion in a tag', async () => {
    const { d, pushed } = deps('2026-11-28T03:00:00Z' /* Saturday 03:00 UTC */, [
      { code: 'ClusterVersionMinor', subject: 'ClusterVersion/version [prod]' },
    ]);
    const r = await promote(request, d);
    expect(r.outcome).toBe('promoted');
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      branch: 'env/prod',
      commit: R,
      tag: { name: 'promote/prod/20261128T030000Z' },
    });
    expect(pushed[0]!.tag!.message).toContain(
      'Groundwork-Gates-Passed: Reachable, Ready, Healthy, NoDrift, NoPendingWaits, SameRevision, Soaked, FastForward, Window',
    );
  });

  it('let any other change through outside the windows', async () => {
    const { d, pushed } = deps('2026-11-25T12:00:00Z', [
      { code: 'SubscriptionChannel', subject: 'Subscription/x/y [prod]' },
    ]);
    const r = await promote(request, d);
    expect(r.outcome).toBe('promoted');
    expect(pushed).toHaveLength(1);
  });

  it('refuse to promote into an environment that follows its ref directly', async () => {
    const { d } = deps('2026-11-25T12:00:00Z', []);
    await expect(promote({ ...request, target: 'staging' }, d)).rejects.toMatchObject({
      code: 'NotPromoted',
    });
    await expect(promote({ ...request, target: 'qa' }, d)).rejects.toMatchObject({
      code: 'UnknownEnvironment',
    });
  });
});

describe('another platform in the same clusters', () => {
  it('neither makes the source clusters "follow different repositories" nor opens its repository', async () => {
    const { d, pushed } = deps('2026-11-25T12:00:00Z', []);
    const opened: string[] = [];
    const other = healthyStaging(OLD).syncs[0]!;
    // Platform "p2" runs the same overlay name from another repository beside "p"'s sync.
    const both = {
      ...healthy,
      syncs: [
        {
          ...other,
          name: 'p2-staging',
          repository: { ...other.repository, url: 'http://git.invalid/p2.git' },
        },
        ...healthy.syncs,
      ],
    };
    const r = await promote(request, {
      ...d,
      observe: async () => [both],
      openGit: async (url) => (opened.push(url), d.openGit(url)),
    });
    expect(r.outcome).toBe('promoted');
    expect(r.repository).toBe('http://git.invalid/p.git');
    expect(opened).toEqual(['http://git.invalid/p.git']);
    expect(pushed).toHaveLength(1);
    // Without the filter both URLs count: the gate would refuse.
    expect(r.gates.find((g) => g.gate === 'Reachable')?.passed).toBe(true);
  });
});
