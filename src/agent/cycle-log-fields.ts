import type { ChangeAction } from '../apply/changeset.js';
import type { CycleTimings } from './agent-state.js';

// The fields the runner's cycle log lines carry: plain numbers, for JSON and the pretty printer.

/** The phases a cycle timed, in milliseconds (not the `unchanged` flag). */
export function timingsOf(t: CycleTimings): Record<string, number> {
  return Object.fromEntries(Object.entries(t).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/** A change set's counts, `deleted` named `pruned` as the metrics name it; zeros left out. */
export function countsOf(counts: Readonly<Record<ChangeAction, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => [k === 'deleted' ? 'pruned' : k, n]),
  );
}
