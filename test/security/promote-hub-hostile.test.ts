import { describe, expect, it } from 'vitest';
import { promote, promotionText, type PromotionDeps, type PromotionGit } from '../../src/fleet/promotion.js';
import { ANNOTATIONS, HUB_API_VERSION, LABELS } from '../../src/hub/hub-names.js';
import { memberObservations } from '../../src/hub/member-observations.js';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';

// `promote --hub` (issue 34) reads the source environment's gates from FleetMember reports, which
// each member's agent writes: a member (or whoever holds its credentials) controls its report, and
// the hub's label and annotation values. A hostile report must not crash promote, must not reach the
// terminal with control characters, must not pass a gate for another member, and a member of
// another environment must not count for (or against) the source environment.

const ENVS = toEnvironments(
  environmentsSchema.parse([
    { name: 'staging', overlays: ['staging'], ref: 'env/staging' },
    { name: 'prod', overlays: ['prod'], ref: 'env/prod', promotedFrom: 'staging' },
  ]),
);
const R = 'c'.repeat(40);
const OTHER = 'd'.repeat(40);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const goodStatus = (over: Record<string, unknown> = {}) => ({
  sequence: 1,
  reportedAt: '2026-11-28T11:00:00Z',
  platform: 'demo',
  overlay: 'staging',
  source: { url: 'http://git.example/p.git' },
  revision: { applied: `env/staging@sha1:${R}` },
  ready: { status: 'True', reason: 'ReconciliationSucceeded', since: '2026-11-28T10:00:00Z' },
  health: { status: 'Healthy', reason: 'AllHealthy' },
  ...over,
});
const raw = (name: string, status: unknown, env = 'staging', more: Record<string, string> = {}) => ({
  apiVersion: HUB_API_VERSION,
  kind: 'FleetMember',
  metadata: {
    name,
    namespace: `member-${name}`,
    labels: { [LABELS.reachability]: 'Reachable' } as Record<string, string>,
    annotations: { [ANNOTATIONS.lastSeen]: '2026-11-28T11:00:00Z', ...more },
  },
  spec: { environment: env },
  status,
});

async function promoteFrom(objects: unknown[]) {
  const pushed: string[] = [];
  const git: PromotionGit = {
    dir: '/nonexistent',
    fetchBranch: async (b) => (b === 'env/staging' ? R : 'b'.repeat(40)),
    contains: async () => true,
    stateOf: async (_c, head) => ({ head, fastForward: true, ahead: 1 }),
    push: async (branch) => void pushed.push(branch),
    dispose: async () => {},
  };
  const members = objects.map(readFleetMember);
  const deps: PromotionDeps = {
    observe: async () => memberObservations({ members, source: ENVS[0]!, platform: 'demo' }),
    openGit: async () => git,
    riskyChanges: async () => [],
    now: () => new Date('2026-11-28T12:00:00Z'),
  };
  const r = await promote({ platform: 'demo', environments: ENVS, target: 'prod', dryRun: false }, deps);
  return { r, text: promotionText(r), pushed };
}

describe('promote --hub: hostile FleetMember reports', () => {
  it('escapes control characters of a report and of hub annotations before the terminal', async () => {
    const { r, text, pushed } = await promoteFrom([
      raw(
        'evil',
        goodStatus({
          ready: { status: 'False', reason: 'ApplyFailed', message: '\u001b[2J\u001b]0;pwned\u0007x\r\n' },
          health: { status: 'Degraded', reason: 'Bad', message: '\u009b31mred\u0000' },
          pending: [{ stage: '\u001b[1A', message: 'wait\u0008\u0008' }],
        }),
      ),
      {
        ...raw('gone', goodStatus(), 'staging', { [ANNOTATIONS.lastSeen]: '\u001b[31m2026' }),
        metadata: {
          name: 'gone',
          namespace: 'member-gone',
          labels: { [LABELS.reachability]: 'Unreachable' },
          annotations: { [ANNOTATIONS.lastSeen]: '\u001b[31m2026' },
        },
      },
    ]);
    expect(r.outcome).toBe('refused');
    expect(pushed).toEqual([]);
    expect(text).not.toMatch(CONTROL);
    expect(JSON.stringify(r)).not.toMatch(CONTROL);
    expect(text).toContain('evil (staging)');
    expect(text).toContain('gone (staging): Unreachable on the hub');
  });

  it('refuses an oversized or malformed report with a bounded message, without crashing', async () => {
    const { r, text, pushed } = await promoteFrom([
      raw(
        'big',
        goodStatus({
          ready: { status: 'True', reason: 'X'.repeat(100_000), message: 'm'.repeat(1_000_000) },
        }),
      ),
      raw(
        'many',
        goodStatus({
          drift: { count: 9, items: Array.from({ length: 10_000 }, () => ({ object: 'o', type: 'extra' })) },
        }),
      ),
      raw('nested', { ready: { status: { a: { b: { c: [[[['\u001b']]]] } } } } }),
      raw('notobj', '\u001b[31mstring status'),
      raw('arr', [1, 2, 3]),
      raw('good', goodStatus()),
    ]);
    expect(r.outcome).toBe('refused');
    expect(pushed).toEqual([]);
    const ready = r.gates.find((g) => g.gate === 'Ready')!;
    expect(ready.failures.map((f) => f.cluster).sort()).toEqual(
      ['arr', 'big', 'many', 'nested', 'notobj'].map((n) => `${n} (staging)`),
    );
    expect(text).not.toMatch(CONTROL);
    expect(text.length).toBeLessThan(10_000);
  });

  it('does not count a member of another environment, whatever its report claims', async () => {
    // A prod member claiming the staging overlay and a healthy staging run at another commit.
    const impostor = raw(
      'impostor',
      goodStatus({ revision: { applied: `env/staging@sha1:${OTHER}` } }),
      'prod',
    );
    const alone = await promoteFrom([impostor]);
    expect(alone.r.outcome).toBe('refused');
    expect(alone.r.clusters).toEqual([]);
    expect(alone.pushed).toEqual([]);
    // Beside a real staging member it changes nothing: the promotion goes through at R.
    const both = await promoteFrom([impostor, raw('real', goodStatus())]);
    expect(both.r.clusters).toEqual(['real (staging)']);
    expect(both.r.commit).toBe(R);
    expect(both.r.outcome).toBe('promoted');
    // A label saying staging does not override the hub's placement in spec.
    const labelled = raw(
      'labelled',
      goodStatus({ ready: { status: 'False', reason: 'ApplyFailed' } }),
      'prod',
    );
    labelled.metadata.labels[LABELS.environment] = 'staging';
    expect((await promoteFrom([labelled, raw('real', goodStatus())])).r.outcome).toBe('promoted');
  });
});
