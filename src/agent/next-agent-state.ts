import type { ChangeSet } from '../apply/changeset.js';
import type { OpenShiftDecisions } from '../reconcile/domains.js';
import type { HealthVerdict } from '../health/types.js';
import type { DriftItem } from '../plan/drift.js';
import type { UnmanagedReport } from '../plan/unmanaged.js';
import type { AgentState, CycleFailure, CycleTimings, GoodRevision, QuietMark } from './agent-state.js';

/**
 * What happened to the agent, in the order a cycle or a drift check meets it. Closed vocabulary:
 * every change of `AgentState` is one of these.
 */
export type AgentEvent =
  /** A cycle begins. */
  | { type: 'cycle-started' }
  /** A cycle ends, however it went, having spent `timings`. */
  | { type: 'cycle-ended'; timings: CycleTimings }
  /** A revision was fetched; `platformName` undefined: groundwork.yaml did not say (keep the last). */
  | { type: 'fetched'; revision: string; platformName: string | undefined }
  /** The cycle failed; `changes`: the partial change set of a failed apply. */
  | { type: 'failed'; reason: CycleFailure; message: string; changes?: ChangeSet }
  /** Git and the watched objects are as the last quiet cycle left them: nothing planned. */
  | { type: 'unchanged' }
  /** The cycle goes on to observe and plan: the quiet mark no longer holds. */
  | { type: 'planning' }
  /**
   * The cycle's revision is now the last good one, applied or found with nothing to apply
   * (`changes` undefined: no apply ran). `drift`: what remains after this apply; `unmanaged`: the
   * cycle's unmanaged-objects report (undefined: none asked for).
   */
  | {
      type: 'applied';
      good: GoodRevision;
      changes: ChangeSet | undefined;
      drift: readonly DriftItem[];
      unmanaged?: UnmanagedReport;
      inventory: number;
    }
  /**
   * What the OpenShift hooks published during an apply (`platformHooks`' `publish`). After a failed
   * apply (`partial`) the decisions of stages it did not reach are kept.
   */
  | { type: 'decided'; openshift: OpenShiftDecisions; partial: boolean }
  /** The health of the desired objects; `quiet`: the cycle ended quiet (see `quietMark`). */
  | { type: 'assessed'; health: HealthVerdict; quiet: QuietMark | undefined }
  /** Drift was reported (Events); an empty list changes nothing. */
  | { type: 'drift-reported'; items: readonly DriftItem[] }
  /** A targeted check re-planned the objects `ids` and found `found` among them. */
  | { type: 'drift-checked'; ids: ReadonlySet<string>; found: readonly DriftItem[] }
  /** Self-heal restored the objects `ids`. */
  | { type: 'drift-healed'; ids: ReadonlySet<string> }
  /**
   * A suspended cycle planned and applied nothing: `drift` and `unmanaged` are what it found
   * (against the last good revision, or the fetched one when there is none, which does not become good).
   */
  | { type: 'held'; drift: readonly DriftItem[]; unmanaged?: UnmanagedReport };

/**
 * The agent's state after `event`. Pure: no clock (times come in the events), no I/O; returns a
 * new value and never changes `state`. Fields an event does not name keep their value (and their
 * identity: `lastGood` stays the same object until another revision becomes good).
 *
 * @example
 * let s = nextAgentState(INITIAL_AGENT_STATE, { type: 'cycle-started' });
 * s = nextAgentState(s, { type: 'fetched', revision: 'main@sha1:…', platformName: 'shop' });
 * s = nextAgentState(s, { type: 'failed', reason: 'SynthFailed', message: '…' });
 * s.failures // 1
 */
export function nextAgentState(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'cycle-started':
      return { ...state, reconciling: true, timings: {} };
    case 'cycle-ended':
      return { ...state, reconciling: false, timings: { ...event.timings } };
    case 'fetched':
      return {
        ...state,
        lastAttemptedRevision: event.revision,
        platformName: event.platformName ?? state.platformName,
      };
    case 'failed':
      return {
        ...state,
        failure: { reason: event.reason, message: event.message },
        failures: state.failures + 1,
        lastChanges: event.changes ?? state.lastChanges,
      };
    case 'unchanged':
      return { ...state, failure: undefined, failures: 0 };
    case 'planning':
      return { ...state, quiet: undefined };
    case 'applied':
      return {
        ...state,
        lastGood: event.good,
        failure: undefined,
        failures: 0,
        lastChanges: event.changes ?? state.lastChanges,
        // A cycle that applies nothing leaves the last apply's pending waits as they were.
        pending: event.changes
          ? event.changes.pending.map((p) => ({ stage: p.stage, message: p.message }))
          : state.pending,
        drift: [...event.drift],
        unmanaged: event.unmanaged,
        inventory: event.inventory,
      };
    case 'decided':
      return {
        ...state,
        openshift: event.partial ? { ...state.openshift, ...event.openshift } : event.openshift,
      };
    case 'assessed':
      return { ...state, health: event.health, quiet: event.quiet };
    case 'drift-reported':
      return event.items.length > 0 ? { ...state, lastDetected: [...event.items] } : state;
    case 'drift-checked':
      return {
        ...state,
        drift: [...state.drift.filter((d) => !event.ids.has(d.id)), ...event.found],
      };
    case 'drift-healed':
      return { ...state, drift: state.drift.filter((d) => !event.ids.has(d.id)) };
    case 'held':
      return {
        ...state,
        drift: [...event.drift],
        unmanaged: event.unmanaged,
        failure: undefined,
        failures: 0,
      };
  }
}
