import type { FleetView } from '../fleet/fleet-view.js';
import type { FleetMemberObject } from '../hub/member-schema.js';
import type { FleetRolloutObject } from '../hub/rollout-schema.js';

/** What `groundwork ui --hub` reads from the hub's watches (`HubFleetSource`), parsed. */
export interface HubFleetView {
  readonly members: readonly FleetMemberObject[];
  readonly rollouts: readonly FleetRolloutObject[];
  /** Objects left out because they did not parse. */
  readonly problems: readonly string[];
  /** Both watches run (else the view may be behind). */
  readonly watching: boolean;
}

/**
 * What the Fleet page knows: the last fleet read (`view`), whether one is under way, and why the
 * last one failed. `unavailable` says why there is no fleet to read at all (no groundwork.yaml).
 */
export interface FleetState {
  /** The last view read; undefined until the first read ends. */
  readonly view?: FleetView;
  /** Why the last read failed (then `view`, if any, is an older one). */
  readonly error?: string;
  /** A read is under way. */
  readonly reading: boolean;
  /** How often the fleet is read while the dashboard runs (ms). */
  readonly intervalMs: number;
  /** How long the last read took (ms). */
  readonly lastReadMs?: number;
  /** Why the dashboard reads no fleet (then nothing else is set). */
  readonly unavailable?: string;
  /** The fleet as the hub holds it (`groundwork ui --hub`): then the page draws it, not `view`. */
  readonly hub?: HubFleetView;
}

/** The Fleet page's source: its state, a wake-up when the page is asked for, and change notices. */
export interface FleetReader {
  state(): FleetState;
  /** Called when the Fleet page is requested: starts the reads on the first call. */
  wanted(): void;
  onChange(listener: () => void): () => void;
}
