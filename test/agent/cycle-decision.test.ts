import { describe, expect, it } from 'vitest';
import { ChangeSet, type ChangeAction } from '../../src/apply/changeset.js';
import {
  applyFailure,
  canSkipPlan,
  decideApply,
  quietMark,
  splitDrift,
} from '../../src/agent/cycle-decision.js';
import type { AgentMode, QuietMark } from '../../src/agent/agent-state.js';
import { GroundworkError } from '../../src/core/errors.js';
import { idOf, refOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import type { DriftItem } from '../../src/plan/drift.js';
import { Plan } from '../../src/plan/plan-result.js';
import type { DryRunProblem } from '../../src/plan/types.js';
import { a1, a2, b, planOf, subscription, synth1, synth2 } from '../harness/agent-decision.js';
import { configMap } from '../harness/engine.js';

describe('canSkipPlan', () => {
  const quiet: QuietMark = { revision: 'r1', fingerprint: 'f1', at: 1_000 };
  const base = { quiet, revision: 'r1', isNew: false, fingerprint: 'f1', now: 2_000, fullPlanEveryMs: 5_000 };
  it.each([
    ['the same revision and objects, within the full-plan period', {}, true],
    ['a new revision', { isNew: true }, false],
    ['another revision than the quiet one', { revision: 'r2' }, false],
    ['watched objects changed', { fingerprint: 'f2' }, false],
    ['no caches (every read is a LIST)', { fingerprint: undefined }, false],
    ['no quiet cycle yet', { quiet: undefined }, false],
    ['the full-plan period is over', { now: 6_000 }, false],
    ['just inside the period', { now: 5_999 }, true],
    ['a period of 0: always plan', { fullPlanEveryMs: 0 }, false],
  ] as const)('%s → %s', (_what, change, expected) => {
    expect(canSkipPlan({ ...base, ...change })).toBe(expected);
  });
});

describe('decideApply', () => {
  const changed = planOf([
    [a2, 'update'],
    [b, 'update'],
  ]);
  const clean = planOf([
    [a1, 'unchanged'],
    [b, 'unchanged'],
  ]);
  const withSub = planOf([
    [a1, 'unchanged'],
    [subscription, 'unchanged'],
  ]);
  it.each<[string, AgentMode, Plan, boolean, boolean, boolean]>([
    // what, mode, plan, isNew → apply, force
    ['self-heal, new revision: apply, no force', 'self-heal', changed, true, true, false],
    ['self-heal, same revision with drift: correct by force', 'self-heal', changed, false, true, true],
    ['self-heal, same revision, nothing to do', 'self-heal', clean, false, false, true],
    ['detect-only, new revision: apply what git changed', 'detect-only', changed, true, true, false],
    ['detect-only, same revision with drift: leave it', 'detect-only', changed, false, false, false],
    ['hooks with pending work apply every cycle', 'detect-only', withSub, false, true, false],
    ['hooks in self-heal too', 'self-heal', withSub, false, true, true],
  ])('%s', (_what, mode, plan, isNew, apply, force) => {
    const d = decideApply({ mode, plan, isNew, candidate: synth2, lastGood: synth1 });
    expect({ apply: d.apply, force: d.force }).toEqual({ apply, force });
  });

  it('self-heal applies the whole plan', () => {
    const d = decideApply({
      mode: 'self-heal',
      plan: changed,
      isNew: true,
      candidate: synth2,
      lastGood: synth1,
    });
    expect(d.plan.items.map((i) => `${i.ref.name} ${i.action}`)).toEqual(['a update', 'b update']);
    expect(
      decideApply({ mode: 'self-heal', plan: changed, isNew: false, candidate: synth2, lastGood: synth2 })
        .plan,
    ).toBe(changed);
  });

  // A drifted field the drift watch did not see (an edit across an apiserver restart) conflicts in
  // the new revision's plan; unforced, every apply of the new revision failed and it never became
  // the last good one, so the forcing cycles of the same revision never came (found by bench soak).
  it('self-heal, new revision: objects git did not change force their conflicts, changed ones do not', () => {
    const conflict: DryRunProblem = {
      code: 'Conflict',
      message: 'conflict with kubectl-edit on /data/v',
      conflicts: [{ manager: 'kubectl-edit', field: '/data/v' }],
    };
    const plan = new Plan({
      ...changed,
      items: changed.items.map((i) => ({ ...i, problem: conflict, message: conflict.message })),
      failedLists: [],
      desiredCount: 2,
      inventorySize: undefined,
    });
    const d = decideApply({ mode: 'self-heal', plan, isNew: true, candidate: synth2, lastGood: synth1 });
    const byName = new Map(d.plan.items.map((i) => [i.ref.name, i]));
    // b is the same in both revisions: its conflict is drift, forced as a same-revision cycle would.
    expect(byName.get('b')).toMatchObject({ action: 'update', policy: { forceConflicts: true } });
    expect(byName.get('b')?.problem).toBeUndefined();
    // a changed in git (v1 → v2): it does not take the field from kubectl-edit.
    expect(byName.get('a')).toMatchObject({ policy: { forceConflicts: false }, problem: conflict });
    expect(d.force).toBe(false);
    // The first cycle has no last good revision to compare with: nothing is forced.
    const first = decideApply({
      mode: 'self-heal',
      plan,
      isNew: true,
      candidate: synth2,
      lastGood: undefined,
    });
    expect(first.plan.items.every((i) => !i.policy.forceConflicts && i.problem === conflict)).toBe(true);
  });

  it('detect-only applies only what git changed since the last good revision', () => {
    const actions = (isNew: boolean, lastGood = synth1) =>
      decideApply({ mode: 'detect-only', plan: changed, isNew, candidate: synth2, lastGood }).plan.items.map(
        (i) => `${i.ref.name} ${i.action}`,
      );
    // a changed in git (v1 → v2), b drifted in the cluster only.
    expect(actions(true)).toEqual(['a update', 'b unchanged']);
    // The same revision: git changed nothing, so nothing is applied.
    expect(actions(false, synth2)).toEqual(['a unchanged', 'b unchanged']);
  });

  it('detect-only applies the whole plan on the first revision', () => {
    const d = decideApply({
      mode: 'detect-only',
      plan: changed,
      isNew: true,
      candidate: synth2,
      lastGood: undefined,
    });
    expect(d.plan).toBe(changed);
  });
});

describe('applyFailure', () => {
  it.each([
    [new GroundworkError({ code: 'Interrupted', message: 'stopped' }), 'Interrupted'],
    [new GroundworkError({ code: 'StageFailed', message: '1 failed' }), 'ApplyFailed'],
    [
      new GroundworkError({ code: 'DependencyUnresolvable', message: 'OLM keeps a.v1' }),
      'DependencyUnresolvable',
    ],
    [new Error('socket hang up'), 'ApplyFailed'],
  ])('%s → %s', (error, reason) => {
    expect(applyFailure(error)).toBe(reason);
  });
});

describe('splitDrift', () => {
  const drift = (o: K8sObject): DriftItem => ({ id: idOf(o), ref: refOf(o), type: 'modified', fields: [] });
  const changesOf = (entries: [K8sObject, ChangeAction][]) =>
    new ChangeSet({
      entries: entries.map(([o, action]) => ({ id: idOf(o), ref: refOf(o), stage: 'resources', action })),
    });
  const c = configMap('ns', 'c', {});
  const d = configMap('ns', 'd', {});
  const found = [drift(a1), drift(b), drift(c), drift(d)];
  const applied = changesOf([
    [a1, 'configured'],
    [b, 'created'],
    [c, 'unchanged'],
    [d, 'failed'],
  ]);
  const names = (items: readonly DriftItem[]) => items.map((i) => i.ref.name);

  it.each<[string, ChangeSet | undefined, boolean, string[], string[]]>([
    ['nothing applied: all remains', undefined, false, [], ['a', 'b', 'c', 'd']],
    ['same revision: what was written was corrected', applied, false, ['a', 'b'], ['c', 'd']],
    ['new revision: written by git, not a correction', applied, true, [], ['c', 'd']],
  ])('%s', (_what, changes, isNew, corrected, remaining) => {
    const split = splitDrift({ drift: found, changes, isNew });
    expect(names(split.corrected)).toEqual(corrected);
    expect(names(split.remaining)).toEqual(remaining);
  });

  it('names what was written (created or configured)', () => {
    expect([...splitDrift({ drift: [], changes: applied, isNew: false }).written]).toEqual([
      idOf(a1),
      idOf(b),
    ]);
  });
});

describe('quietMark', () => {
  const base = {
    mode: 'self-heal' as AgentMode,
    isNew: false,
    plan: planOf([[a1, 'unchanged']]),
    pending: [],
    incomplete: false,
    revision: 'r1',
    fingerprint: 'f1',
    now: 42,
  };
  it.each([
    ['settled: nothing new, nothing to correct, nothing pending', {}, true],
    ['a new revision', { isNew: true }, false],
    ['self-heal with changes left to make', { plan: planOf([[a2, 'update']]) }, false],
    [
      'detect-only with drift it leaves alone',
      { mode: 'detect-only' as AgentMode, plan: planOf([[a2, 'update']]) },
      true,
    ],
    [
      'a stage wait pending',
      { pending: [{ stage: 'machine-configs', message: 'outside its window' }] },
      false,
    ],
    ['a list failed or a kind was not served', { incomplete: true }, false],
    ['no caches', { fingerprint: undefined }, false],
  ])('%s → %s', (_what, change, quiet) => {
    const mark = quietMark({ ...base, ...change });
    expect(mark).toEqual(quiet ? { revision: 'r1', fingerprint: 'f1', at: 42 } : undefined);
  });
});
