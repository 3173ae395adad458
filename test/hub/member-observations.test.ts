import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/fleet/gates.js';
import { ANNOTATIONS, LABELS } from '../../src/hub/hub-names.js';
import { memberObservations } from '../../src/hub/member-observations.js';
import type { FleetMemberObject, MemberReport } from '../../src/hub/member-schema.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';

const [staging] = toEnvironments(
  environmentsSchema.parse([
    { name: 'staging', overlays: ['staging'], ref: 'env/staging', soak: '30m' },
    { name: 'prod', overlays: ['prod'], ref: 'env/prod', promotedFrom: 'staging' },
  ]),
);
const A = 'a'.repeat(40);
const NOW = new Date('2026-11-28T12:00:00Z');

const report = (over: Partial<MemberReport> = {}): MemberReport => ({
  sequence: 1,
  reportedAt: '2026-11-28T11:59:00Z',
  platform: 'demo',
  overlay: 'staging',
  source: { url: 'http://git.example/platform.git', ref: 'env/staging' },
  revision: { applied: `env/staging@sha1:${A}` },
  ready: { status: 'True', reason: 'ReconciliationSucceeded', since: '2026-11-28T10:00:00Z' },
  health: { status: 'Healthy', reason: 'AllHealthy' },
  drift: { count: 0 },
  ...over,
});

const member = (name: string, more: Partial<FleetMemberObject> = {}): FleetMemberObject => ({
  name,
  namespace: `member-${name}`,
  labels: { [LABELS.member]: name, [LABELS.reachability]: 'Reachable' },
  annotations: { [ANNOTATIONS.lastSeen]: '2026-11-28T11:59:30Z' },
  generation: 1,
  spec: { environment: 'staging' },
  report: report(),
  ...more,
});

const gates = (members: FleetMemberObject[]) =>
  checkSource({
    source: staging!,
    platform: 'demo',
    observations: memberObservations({ members, source: staging!, platform: 'demo' }),
    now: NOW,
  });

describe('promotion gates from hub members', () => {
  it('pass when every member of the source environment is Reachable, Ready, Healthy and soaked at one commit', () => {
    const v = gates([member('s-1'), member('s-2')]);
    expect(v.failures).toEqual([]);
    expect(v.commit).toBe(A);
    expect(v.clusters).toEqual(['s-1 (staging)', 's-2 (staging)']);
  });

  it('count only members placed in the source environment (spec, else the environment label)', () => {
    const prod = member('p-1', {
      spec: { environment: 'prod' },
      report: report({ ready: { status: 'False', reason: 'ApplyFailed' } }),
    });
    const byLabel = member('l-1', {
      spec: {},
      labels: { [LABELS.environment]: 'staging', [LABELS.reachability]: 'Reachable' },
    });
    const v = gates([member('s-1'), prod, byLabel]);
    expect(v.failures).toEqual([]);
    expect(v.clusters).toEqual(['s-1 (staging)', 'l-1 (staging)']);
  });

  it('block on a Degraded, drifted, unsoaked or not Ready member, naming it', () => {
    const v = gates([
      member('deg', { report: report({ health: { status: 'Degraded', reason: 'PodsCrashing' } }) }),
      member('drift', {
        report: report({ drift: { count: 2, items: [{ object: 'ConfigMap/a/b', type: 'modified' }] } }),
      }),
      member('new', {
        report: report({
          ready: { status: 'True', reason: 'ReconciliationSucceeded', since: '2026-11-28T11:50:00Z' },
        }),
      }),
      member('down', {
        report: report({ ready: { status: 'False', reason: 'ApplyFailed', message: 'boom' } }),
      }),
    ]);
    expect(v.failures).toEqual(
      expect.arrayContaining([
        { gate: 'Healthy', cluster: 'deg (staging)', message: 'Degraded (PodsCrashing)' },
        {
          gate: 'NoDrift',
          cluster: 'drift (staging)',
          message: '2 object(s) differ from git: ConfigMap/a/b (modified)',
        },
        expect.objectContaining({ gate: 'Soaked', cluster: 'new (staging)' }),
        { gate: 'Ready', cluster: 'down (staging)', message: 'Ready=False ApplyFailed: boom' },
      ]),
    );
  });

  it('block on an Unreachable member even with a good last report', () => {
    const v = gates([member('s-1'), member('gone', { labels: { [LABELS.reachability]: 'Unreachable' } })]);
    expect(v.failures).toEqual([
      {
        gate: 'Reachable',
        cluster: 'gone (staging)',
        message: 'Unreachable on the hub: last heartbeat 2026-11-28T11:59:30Z',
      },
    ]);
  });

  it('block on a member whose report does not parse, or that has not reported, naming it', () => {
    const { report: _r, ...bare } = member('x');
    const v = gates([
      member('s-1'),
      { ...bare, name: 'odd', reportProblem: 'ready.status: Invalid option' },
      { ...bare, name: 'silent' },
    ]);
    expect(v.failures).toEqual(
      expect.arrayContaining([
        {
          gate: 'Ready',
          cluster: 'odd (staging)',
          message: 'its status cannot be read: its report cannot be read: ready.status: Invalid option',
        },
        {
          gate: 'Ready',
          cluster: 'silent (staging)',
          message: 'its status cannot be read: it has not reported yet',
        },
        { gate: 'SameRevision', cluster: 'odd (staging)', message: 'no revision applied yet' },
      ]),
    );
    expect(v.commit).toBe(A);
  });

  it('block with a clear message when the hub has no member of the source environment', () => {
    const v = gates([member('p-1', { spec: { environment: 'prod' } })]);
    expect(v.commit).toBeUndefined();
    expect(v.failures).toEqual([
      { gate: 'Reachable', message: 'no cluster of the fleet runs overlay staging of demo' },
    ]);
  });

  it('with a selector, only the source members whose labels match gate the promotion', () => {
    const eu = { [LABELS.member]: 'x', [LABELS.reachability]: 'Reachable', region: 'eu' };
    const members = [
      member('eu-1', { labels: { ...eu, [LABELS.member]: 'eu-1' } }),
      member('eu-canary', { labels: { ...eu, [LABELS.member]: 'eu-canary', ring: 'canary' } }),
      // Failing, but outside the selection: it does not block.
      member('us-1', {
        labels: { [LABELS.member]: 'us-1', [LABELS.reachability]: 'Unreachable', region: 'us' },
        report: report({ ready: { status: 'False', reason: 'HealthCheckFailed' } }),
      }),
    ];
    const selected = (selector: Parameters<typeof memberObservations>[0]['selector']) =>
      memberObservations({
        members,
        source: staging!,
        platform: 'demo',
        ...(selector ? { selector } : {}),
      }).map((o) => o.cluster);
    expect(selected(undefined)).toEqual(['eu-1', 'eu-canary', 'us-1']);
    expect(selected({ matchLabels: { region: 'eu' } })).toEqual(['eu-1', 'eu-canary']);
    expect(
      selected({
        matchLabels: { region: 'eu' },
        matchExpressions: [{ key: 'ring', operator: 'DoesNotExist' }],
      }),
    ).toEqual(['eu-1']);
    const v = checkSource({
      source: staging!,
      platform: 'demo',
      observations: memberObservations({
        members,
        source: staging!,
        platform: 'demo',
        selector: { matchLabels: { region: 'eu' } },
      }),
      now: NOW,
    });
    expect(v.failures).toEqual([]);
    expect(v.commit).toBe(A);
    // Selecting nobody blocks: the gates never pass on no clusters.
    const none = checkSource({
      source: staging!,
      platform: 'demo',
      observations: memberObservations({
        members,
        source: staging!,
        platform: 'demo',
        selector: { matchLabels: { region: 'ap' } },
      }),
      now: NOW,
    });
    expect(none.commit).toBeUndefined();
    expect(none.failures.map((f) => f.gate)).toEqual(['Reachable']);
  });
});
