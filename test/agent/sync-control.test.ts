// Suspend as an input of the agent's pure decisions, and the annotations that carry it (hostile input).
import { describe, expect, it } from 'vitest';
import type { AgentMode } from '../../src/agent/agent-state.js';
import { decideApply, fetchesGit, healsDrift } from '../../src/agent/cycle-decision.js';
import { INITIAL_AGENT_STATE } from '../../src/agent/agent-state.js';
import { nextAgentState } from '../../src/agent/next-agent-state.js';
import {
  BY_LIMIT,
  RECONCILE_ANNOTATION,
  REASON_LIMIT,
  TOKEN_LIMIT,
  SUSPEND_ANNOTATION,
  SUSPENDED_AT_ANNOTATION,
  SUSPENDED_BY_ANNOTATION,
  parseSyncControl,
} from '../../src/agent/sync-control.js';
import { nextStatus } from '../../src/report/sync-status.js';
import { HISTORY_LIMIT, appendHistory, type HistoryEntry } from '../../src/report/sync-status-schema.js';
import { DriftReport } from '../../src/report/drift-report.js';
import { idOf, refOf } from '../../src/core/object-id.js';
import type { DriftItem } from '../../src/plan/drift.js';
import type { Plan } from '../../src/plan/plan-result.js';
import { a1, a2, b, planOf, subscription, synth1, synth2 } from '../harness/agent-decision.js';
import { checkSource, fleetRows, fleetText, type ClusterObservation } from '../../src/fleet/gates.js';
import { environmentsSchema, toEnvironments } from '../../src/project/environments.js';

describe('suspend in the cycle decisions', () => {
  const changed = planOf([
    [a2, 'update'],
    [b, 'update'],
  ]);
  const withSub = planOf([
    [a1, 'unchanged'],
    [subscription, 'unchanged'],
  ]);
  it.each<[string, AgentMode, Plan, boolean, boolean]>([
    // what, mode, plan, isNew, suspended → apply
    ['self-heal, drift, suspended: nothing applied', 'self-heal', changed, false, false],
    ['self-heal, new revision, suspended: not applied', 'self-heal', changed, true, false],
    ['detect-only, new revision, suspended: not applied', 'detect-only', changed, true, false],
    ['hooks with pending work, suspended: not run', 'self-heal', withSub, false, false],
    ['self-heal, drift, resumed: corrected', 'self-heal', changed, false, true],
  ])('%s', (what, mode, plan, isNew, apply) => {
    const suspended = what.includes('suspended');
    const d = decideApply({ mode, plan, isNew, candidate: synth2, lastGood: synth1, suspended });
    expect(d.apply).toBe(apply);
    if (suspended) expect(d.force).toBe(false);
  });

  it.each<[boolean, boolean, boolean]>([
    // suspended, hasLastGood → fetches git
    [false, false, true],
    [false, true, true],
    [true, false, true],
    [true, true, false],
  ])('suspended %s, last good %s: fetches git %s', (suspended, hasLastGood, fetches) => {
    expect(fetchesGit({ suspended, hasLastGood })).toBe(fetches);
  });

  it.each<[AgentMode, boolean, boolean]>([
    ['self-heal', false, true],
    ['self-heal', true, false],
    ['detect-only', false, false],
    ['detect-only', true, false],
  ])('%s, suspended %s: watches heal %s', (mode, suspended, heals) => {
    expect(healsDrift({ mode, suspended })).toBe(heals);
  });

  it('a held cycle keeps the drift it found and leaves the last good revision', () => {
    const drift: DriftItem[] = [{ id: idOf(a1), ref: refOf(a1), type: 'modified', fields: [] } as DriftItem];
    const before = nextAgentState(INITIAL_AGENT_STATE, {
      type: 'failed',
      reason: 'FetchFailed',
      message: 'x',
    });
    const s = nextAgentState(before, { type: 'held', drift });
    expect(s.drift).toEqual(drift);
    expect(s.lastGood).toBeUndefined();
    expect(s.failures).toBe(0);
  });
});

describe('parseSyncControl (hostile annotation values)', () => {
  it('reads reason, who and when', () => {
    expect(
      parseSyncControl({
        [SUSPEND_ANNOTATION]: 'incident 42',
        [SUSPENDED_BY_ANNOTATION]: 'alice',
        [SUSPENDED_AT_ANNOTATION]: '2026-11-26T23:00:00Z',
      }),
    ).toEqual({ suspended: { reason: 'incident 42', by: 'alice', at: '2026-11-26T23:00:00Z' } });
  });

  it('an empty value still suspends (kubectl annotate psync x groundwork.io/suspend=)', () => {
    expect(parseSyncControl({ [SUSPEND_ANNOTATION]: '' })).toEqual({ suspended: { reason: '' } });
  });

  it('no annotation, or annotations that are not an object of strings, ask for nothing', () => {
    for (const garbage of [undefined, null, 42, 'x', [], [SUSPEND_ANNOTATION], { other: 'x' }])
      expect(parseSyncControl(garbage)).toEqual({});
  });

  it('bounds and flattens the values, drops a time that is not one, never throws', () => {
    const c = parseSyncControl({
      [SUSPEND_ANNOTATION]: `line1\nline2\u0000\u001b[31m${'r'.repeat(100_000)}`,
      [SUSPENDED_BY_ANNOTATION]: 'b'.repeat(10_000),
      [SUSPENDED_AT_ANNOTATION]: 'yesterday; rm -rf /',
    });
    expect(c.suspended!.reason.length).toBeLessThanOrEqual(REASON_LIMIT);
    expect(c.suspended!.reason).toMatch(/^line1 line2 \[31mr+…$/);
    expect(c.suspended!.by!.length).toBe(BY_LIMIT);
    expect(c.suspended!.at).toBeUndefined();
    // A non-string suspend value (as a hand-written object could hold) still suspends.
    expect(parseSyncControl({ [SUSPEND_ANNOTATION]: { a: 1 } })).toEqual({ suspended: { reason: '' } });
  });
});

describe('reconcile requests (hostile annotation values)', () => {
  it('a token asks for a cycle, alone or with a suspend; bounded; a non-string asks nothing', () => {
    expect(parseSyncControl({ [RECONCILE_ANNOTATION]: '2026-11-27T00:00:00.000Z' })).toEqual({
      reconcile: '2026-11-27T00:00:00.000Z',
    });
    expect(parseSyncControl({ [RECONCILE_ANNOTATION]: 't', [SUSPEND_ANNOTATION]: 'x' })).toEqual({
      suspended: { reason: 'x' },
      reconcile: 't',
    });
    expect(parseSyncControl({ [RECONCILE_ANNOTATION]: 'z'.repeat(1e6) }).reconcile).toHaveLength(TOKEN_LIMIT);
    expect(parseSyncControl({ [RECONCILE_ANNOTATION]: 7 })).toEqual({});
    expect(parseSyncControl({ [RECONCILE_ANNOTATION]: '  \n ' })).toEqual({});
  });

  it('the status records the request a cycle answered, and keeps it through a drift report', () => {
    const s = nextStatus(undefined, {
      type: 'failed',
      at: new Date('2026-11-26T23:00:00Z'),
      generation: 1,
      reason: 'FetchFailed',
      message: 'x',
      handledReconcile: 't1',
    });
    expect(s.value.lastHandledReconcileAt).toBe('t1');
    const d = nextStatus(s, {
      type: 'drift',
      at: new Date(),
      drift: new DriftReport('p', 'dev', [], undefined),
    });
    expect(d.value.lastHandledReconcileAt).toBe('t1');
  });
});

describe('status of a suspended sync', () => {
  const at = new Date('2026-11-26T23:00:00Z');
  const reconciled = {
    type: 'reconciled' as const,
    at,
    generation: 1,
    revision: 'main@sha1:abc',
    applied: true,
    inventory: { objects: 2 },
    health: { status: 'Healthy' as const, reason: 'AllHealthy' },
    drift: new DriftReport('p', 'dev', [], 'main@sha1:abc'),
  };
  it('Ready=False Suspended with who and why, and back to Ready on resume', () => {
    const s = nextStatus(undefined, { ...reconciled, suspended: { reason: 'incident 42', by: 'alice' } });
    expect(s.condition('Ready')).toMatchObject({ status: 'False', reason: 'Suspended' });
    expect(s.condition('Ready')!.message).toContain('suspended by alice: incident 42');
    expect(s.value.suspended).toEqual({ reason: 'incident 42', by: 'alice' });
    expect(s.toString()).toContain('suspended by alice: incident 42');
    const resumed = nextStatus(s, reconciled);
    expect(resumed.ready).toBe(true);
    expect(resumed.value.suspended).toBeUndefined();
  });
});

describe('appendHistory', () => {
  const e = (revision: string, outcome: 'applied' | 'failed' = 'applied', reason?: string): HistoryEntry => ({
    revision,
    at: '2026-11-26T23:00:00Z',
    outcome,
    ...(reason ? { reason } : {}),
  });
  it('newest first, bounded, a repeat of the newest not added', () => {
    let h: HistoryEntry[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = appendHistory(h, e(`r${i}`));
    expect(h).toHaveLength(HISTORY_LIMIT);
    expect(h[0]!.revision).toBe(`r${HISTORY_LIMIT + 4}`);
    expect(appendHistory(h, e(`r${HISTORY_LIMIT + 4}`))).toEqual(h);
    const failed = appendHistory(h, e('x', 'failed', 'SynthFailed'));
    expect(appendHistory(failed, e('x', 'failed', 'SynthFailed'))).toEqual(failed);
    expect(appendHistory(failed, e('x', 'failed', 'ApplyFailed'))[0]!.reason).toBe('ApplyFailed');
  });

  it('a reconcile event carries the history into the status; one without keeps it', () => {
    const base = {
      type: 'reconciled' as const,
      at: new Date('2026-11-26T23:00:00Z'),
      generation: 1,
      revision: 'main@sha1:abc',
      applied: true,
      inventory: { objects: 1 },
      health: { status: 'Healthy' as const, reason: 'AllHealthy' },
    };
    const s = nextStatus(undefined, { ...base, history: [e('main@sha1:abc')] });
    expect(s.value.history).toEqual([e('main@sha1:abc')]);
    expect(nextStatus(s, base).value.history).toEqual([e('main@sha1:abc')]);
  });
});

describe('a suspended sync in fleet status and the promote gate', () => {
  it('promote refuses a suspended source cluster, saying who suspended it and why; fleet status shows it', () => {
    const at = new Date('2026-11-26T23:00:00Z');
    const s = nextStatus(undefined, {
      type: 'reconciled',
      at,
      generation: 1,
      revision: `main@sha1:${'a'.repeat(40)}`,
      applied: true,
      inventory: { objects: 1 },
      health: { status: 'Healthy', reason: 'AllHealthy' },
      suspended: { reason: 'incident 42', by: 'alice' },
    });
    const [env] = toEnvironments(environmentsSchema.parse([{ name: 'dev', overlays: ['dev'], ref: 'main' }]));
    const observations: ClusterObservation[] = [
      {
        cluster: 'c1',
        context: 'c1',
        syncs: [
          {
            name: 'p-dev',
            namespace: 'groundwork-system',
            overlay: 'dev',
            repository: { url: 'http://git/p.git' },
            status: s.toJSON(),
          },
        ],
      },
    ];
    const v = checkSource({
      source: env!,
      platform: 'p',
      observations,
      now: new Date('2026-11-27T00:00:00Z'),
    });
    const ready = v.failures.find((f) => f.gate === 'Ready');
    expect(ready?.message).toContain('Suspended');
    expect(ready?.message).toContain('suspended by alice: incident 42');
    expect(
      fleetText(fleetRows({ platform: 'p', environments: [env!], observations, behind: new Map() })),
    ).toContain('Suspended');
  });
});
