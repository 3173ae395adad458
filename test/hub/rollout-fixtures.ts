import { LABELS, memberNamespace } from '../../src/hub/hub-names.js';
import type { FleetMemberObject, MemberRelease, MemberReport } from '../../src/hub/member-schema.js';
import { decideRollout, type RolloutDecision } from '../../src/hub/rollout-decision.js';
import type { FleetRolloutObject, RolloutSpec } from '../../src/hub/rollout-schema.js';

// Builders for the rollout decision's tests: members, reports, a rollout, and a loop that plays
// the controller (writes the releases and the status back) and the agents (report a commit).

export const SHA = 'a'.repeat(40);
export const OLD = 'b'.repeat(40);
export const T0 = Date.parse('2026-11-28T10:00:00Z');

export function spec(over: Partial<RolloutSpec> = {}): RolloutSpec {
  return {
    environment: 'prod',
    ref: 'env/prod',
    revision: SHA,
    waves: [
      { name: 'canary', selector: [{ key: 'ring', value: 'canary' }] },
      { name: 'ten', percent: 10 },
      { name: 'rest' },
    ],
    maxUnavailable: '100%',
    maxFailures: '0',
    bakeSeconds: 600,
    progressDeadlineSeconds: 1800,
    ...over,
  };
}

export function rollout(s: RolloutSpec = spec(), status?: FleetRolloutObject['status']): FleetRolloutObject {
  return { name: 'prod-aaaa', generation: 1, spec: s, ...(status ? { status } : {}) };
}

/** A report at `commit`: Ready and Healthy unless told otherwise. */
export function report(commit: string, over: Partial<MemberReport> = {}): MemberReport {
  return {
    sequence: 1,
    reportedAt: '2026-11-28T09:00:00Z',
    revision: { applied: `env/prod@sha1:${commit}`, attempted: `env/prod@sha1:${commit}` },
    ready: { status: 'True', reason: 'ReconciliationSucceeded' },
    health: { status: 'Healthy', reason: 'AllHealthy' },
    ...over,
  };
}

export function member(
  name: string,
  opts: {
    labels?: Record<string, string>;
    environment?: string;
    release?: MemberRelease;
    report?: MemberReport;
    reachability?: string;
  } = {},
): FleetMemberObject {
  return {
    name,
    namespace: memberNamespace(name),
    labels: {
      [LABELS.member]: name,
      [LABELS.reachability]: opts.reachability ?? 'Reachable',
      ...opts.labels,
    },
    annotations: {},
    generation: 1,
    spec: {
      environment: opts.environment ?? 'prod',
      ...(opts.release ? { release: opts.release } : {}),
    },
    report: opts.report ?? report(OLD),
  };
}

/** The fleet of the tests: two canaries and `n` others, all at OLD. */
export function fleet(n: number): FleetMemberObject[] {
  return [
    member('canary-1', { labels: { ring: 'canary' } }),
    member('canary-2', { labels: { ring: 'canary' } }),
    ...Array.from({ length: n }, (_, i) => member(`store-${String(i).padStart(3, '0')}`)),
  ];
}

/** Applies a decision as the controller would: releases into the members' spec, the status kept. */
export function applyDecision(
  r: FleetRolloutObject,
  members: FleetMemberObject[],
  d: RolloutDecision,
): { rollout: FleetRolloutObject; members: FleetMemberObject[] } {
  const byMember = new Map(d.releases.map((x) => [x.member, x.release]));
  return {
    rollout: { ...r, status: d.status },
    members: members.map((m) =>
      byMember.has(m.name) ? { ...m, spec: { ...m.spec, release: byMember.get(m.name)! } } : m,
    ),
  };
}

/** Every released member's agent applies the commit and reports `outcome(name)` (default: Ready). */
export function agentsApply(
  members: FleetMemberObject[],
  outcome: (name: string) => MemberReport = () => report(SHA),
): FleetMemberObject[] {
  return members.map((m) => (m.spec.release?.revision.endsWith(SHA) ? { ...m, report: outcome(m.name) } : m));
}

/** One controller pass: decide, apply. */
export function step(
  state: { rollout: FleetRolloutObject; members: FleetMemberObject[] },
  now: number,
): { rollout: FleetRolloutObject; members: FleetMemberObject[]; decision: RolloutDecision } {
  const decision = decideRollout(state.rollout, state.members, now);
  return { ...applyDecision(state.rollout, state.members, decision), decision };
}
