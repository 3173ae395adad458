import { describe, expect, it } from 'vitest';
import { INITIAL_AGENT_STATE, type AgentState, type GoodRevision } from '../../src/agent/agent-state.js';
import { nextAgentState, type AgentEvent } from '../../src/agent/next-agent-state.js';
import { ChangeSet } from '../../src/apply/changeset.js';
import { idOf, refOf } from '../../src/core/object-id.js';
import type { K8sObject } from '../../src/core/object.js';
import type { HealthVerdict } from '../../src/health/types.js';
import type { DriftItem } from '../../src/plan/drift.js';
import { configMap, synthOf } from '../harness/engine.js';

const good = (revision: string): GoodRevision => ({
  revision,
  synth: synthOf([configMap('ns', 'a', {})], { overlay: 'dev' }),
  data: { catalogs: [], graphs: [] },
});
const drift = (o: K8sObject): DriftItem => ({ id: idOf(o), ref: refOf(o), type: 'modified', fields: [] });
const a = drift(configMap('ns', 'a', {}));
const b = drift(configMap('ns', 'b', {}));
const healthy: HealthVerdict = { status: 'Healthy', reason: 'AllHealthy', message: '' };
const pendingChanges = new ChangeSet({
  pending: [{ stage: 'machine-configs', message: 'outside its window' }],
});
const failedChanges = new ChangeSet({ error: new Error('1 object(s) failed') });

const r1 = good('main@sha1:1');
/** An agent that has applied r1 and has drift on `a`, after a failed cycle. */
const applied: AgentState = {
  ...INITIAL_AGENT_STATE,
  lastGood: r1,
  lastAttemptedRevision: r1.revision,
  failure: { reason: 'FetchFailed', message: 'git down' },
  failures: 2,
  drift: [a],
  pending: [{ stage: 'subscriptions', message: 'pin not reached' }],
  quiet: { revision: r1.revision, fingerprint: 'f', at: 1 },
  platformName: 'shop',
};

/** The fields an event changed, with their new values. */
function changed(state: AgentState, event: AgentEvent): Partial<AgentState> {
  const next = nextAgentState(state, event);
  return Object.fromEntries(
    Object.entries(next).filter(([k, v]) => v !== state[k as keyof AgentState]),
  ) as Partial<AgentState>;
}

describe('nextAgentState', () => {
  it.each<[string, AgentEvent, Partial<AgentState>]>([
    [
      'a cycle starts: reconciling, timings reset',
      { type: 'cycle-started' },
      { reconciling: true, timings: {} },
    ],
    [
      'a cycle ends with its timings',
      { type: 'cycle-ended', timings: { fetch: 3, unchanged: true } },
      { timings: { fetch: 3, unchanged: true } },
    ],
    [
      'a fetch names the attempted revision and the platform',
      { type: 'fetched', revision: 'main@sha1:2', platformName: 'store' },
      { lastAttemptedRevision: 'main@sha1:2', platformName: 'store' },
    ],
    [
      'a fetch without a platform name keeps the last one',
      { type: 'fetched', revision: 'main@sha1:2', platformName: undefined },
      { lastAttemptedRevision: 'main@sha1:2' },
    ],
    [
      'a failure counts, and keeps the last good revision',
      { type: 'failed', reason: 'SynthFailed', message: 'does not compile' },
      { failure: { reason: 'SynthFailed', message: 'does not compile' }, failures: 3 },
    ],
    [
      'a failed apply keeps its partial change set',
      { type: 'failed', reason: 'ApplyFailed', message: '1 object(s) failed', changes: failedChanges },
      {
        failure: { reason: 'ApplyFailed', message: '1 object(s) failed' },
        failures: 3,
        lastChanges: failedChanges,
      },
    ],
    ['an unchanged cycle clears the failure', { type: 'unchanged' }, { failure: undefined, failures: 0 }],
    ['planning ends the quiet mark', { type: 'planning' }, { quiet: undefined }],
    [
      'a new revision applied: good, no failure, its pending waits and remaining drift',
      { type: 'applied', good: good('main@sha1:2'), changes: pendingChanges, drift: [b], inventory: 7 },
      {
        lastGood: good('main@sha1:2'),
        failure: undefined,
        failures: 0,
        lastChanges: pendingChanges,
        pending: [{ stage: 'machine-configs', message: 'outside its window' }],
        drift: [b],
        inventory: 7,
      },
    ],
    [
      'nothing applied: the last apply and its pending waits stay',
      { type: 'applied', good: r1, changes: undefined, drift: [], inventory: 1 },
      { failure: undefined, failures: 0, drift: [], inventory: 1 },
    ],
    [
      'health, and the quiet mark of a settled cycle',
      { type: 'assessed', health: healthy, quiet: { revision: r1.revision, fingerprint: 'g', at: 9 } },
      { health: healthy, quiet: { revision: r1.revision, fingerprint: 'g', at: 9 } },
    ],
    ['reported drift is remembered', { type: 'drift-reported', items: [b] }, { lastDetected: [b] }],
    ['reporting no drift forgets nothing', { type: 'drift-reported', items: [] }, {}],
    [
      'a targeted check replaces the drift of the objects it re-planned',
      { type: 'drift-checked', ids: new Set([a.id, b.id]), found: [b] },
      { drift: [b] },
    ],
    [
      'a targeted check of other objects adds to the drift',
      { type: 'drift-checked', ids: new Set([b.id]), found: [b] },
      { drift: [a, b] },
    ],
    ['healed objects are no longer drift', { type: 'drift-healed', ids: new Set([a.id]) }, { drift: [] }],
  ])('%s', (_what, event, expected) => {
    expect(changed(applied, event)).toEqual(expected);
  });

  it('never changes the state it is given', () => {
    const before = structuredClone({ ...applied, lastGood: undefined });
    const state = { ...applied };
    nextAgentState(state, { type: 'drift-healed', ids: new Set([a.id]) });
    nextAgentState(state, { type: 'failed', reason: 'ObserveFailed', message: 'x' });
    expect({ ...state, lastGood: undefined }).toEqual(before);
    expect(state.lastGood).toBe(r1);
  });

  it('keeps the last good revision the same object until another becomes good (watches re-track on change)', () => {
    let s = nextAgentState(applied, { type: 'cycle-started' });
    s = nextAgentState(s, { type: 'applied', good: r1, changes: undefined, drift: [], inventory: 1 });
    s = nextAgentState(s, { type: 'failed', reason: 'ObserveFailed', message: 'x' });
    expect(s.lastGood).toBe(r1);
  });
});
