import type { DriftItem } from '../plan/drift.js';
import type { NotifyEvent } from '../report/notifications/types.js';
import type { AgentMode, AgentState, CycleResult } from './agent-state.js';

/** A cycle's outcome as the notifier reads it: the result, and the state the cycle left. */
export function cycleEnded(
  result: CycleResult,
  state: AgentState,
  opts: { mode: AgentMode; suspended: boolean },
): NotifyEvent {
  return {
    type: 'cycle-ended',
    revision: result.revision,
    ...(result.failure ? { failure: result.failure } : {}),
    good: result.revision !== undefined && state.lastGood?.revision === result.revision,
    suspended: opts.suspended,
    ...(state.health ? { health: state.health } : {}),
    drift: driftOf(result.drift),
    mode: opts.mode,
    pending: state.pending,
  };
}

/** What a targeted drift check found. */
export function driftChecked(
  found: readonly DriftItem[],
  mode: AgentMode,
  revision: string | undefined,
): NotifyEvent {
  return { type: 'drift-checked', drift: driftOf(found), mode, ...(revision ? { revision } : {}) };
}

function driftOf(items: readonly DriftItem[]) {
  return items.map((d) => ({ id: d.id, type: d.type }));
}
