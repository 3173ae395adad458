// What the agent is configured with, what it knows between cycles, and what one cycle returns.
import type { ChangeSet } from '../apply/changeset.js';
import type { HealthVerdict } from '../health/types.js';
import type { DriftItem } from '../plan/drift.js';
import type { SynthResult } from '../synth/synthesize.js';
import type { PlatformData } from '../engine/domains.js';

/** How the agent treats drift. */
export type AgentMode = 'detect-only' | 'self-heal';

/** Why a cycle did not reach the cluster; closed vocabulary (also the status reasons). */
export type CycleFailure = 'FetchFailed' | 'SynthFailed' | 'ObserveFailed' | 'ApplyFailed' | 'Interrupted';

export interface AgentConfig {
  overlay: string;
  mode: AgentMode;
  /** Prune objects removed from git. @default true */
  prune?: boolean;
  maxPruneShare?: number;
  /** Stage wait timeout (the agent does not block on health: hooks act once per cycle). @default 60_000 */
  timeoutMs?: number;
  /**
   * A cycle whose revision and watched objects are unchanged since the last quiet cycle reuses its
   * outcome instead of planning again; a full plan still runs at least this often. @default 600_000
   */
  fullPlanEveryMs?: number;
}

/** The last revision that synthesized and applied, kept while later ones fail. */
export interface GoodRevision {
  revision: string;
  synth: SynthResult;
  data: PlatformData;
}

/** What the agent knows after a cycle or a drift check: the input of status, events and metrics. */
export interface AgentState {
  lastGood: GoodRevision | undefined;
  lastAttemptedRevision: string | undefined;
  failure: { reason: CycleFailure; message: string } | undefined;
  /** Consecutive failed cycles (for backoff). */
  failures: number;
  drift: DriftItem[];
  /** The drift most recently detected, kept after self-heal corrected it (for reports of what happened). */
  lastDetected: DriftItem[];
  health: HealthVerdict | undefined;
  inventory: number;
  pending: { stage: string; message: string }[];
  lastChanges: ChangeSet | undefined;
  reconciling: boolean;
  /**
   * Where the last cycle spent its time, in milliseconds (for logs and the benchmark). `unchanged`:
   * the cycle found its revision and the watched objects as the last quiet cycle left them, and
   * did not plan.
   */
  timings: {
    fetch?: number;
    synth?: number;
    plan?: number;
    apply?: number;
    health?: number;
    unchanged?: true;
  };
  /** The platform's name from the last fetched groundwork.yaml (known before any synth succeeds). */
  platformName: string | undefined;
}

/** One full cycle's outcome. */
export interface CycleResult {
  revision: string | undefined;
  applied: boolean;
  failure?: { reason: CycleFailure; message: string };
  drift: DriftItem[];
}
