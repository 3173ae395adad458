// What the agent is configured with, what it knows between cycles, and what one cycle returns.
import type { ChangeSet } from '../apply/changeset.js';
import type { HealthVerdict } from '../health/types.js';
import type { DriftItem } from '../plan/drift.js';
import type { UnmanagedReport } from '../plan/unmanaged.js';
import type { UnmanagedConfig } from '../project/unmanaged-config.js';
import type { SynthResult } from '../render/synth/synthesize.js';
import type { OpenShiftDecisions, PlatformData } from '../reconcile/domains.js';
import type { FailureReason } from '../report/sync-status-schema.js';

/** How the agent treats drift. */
export type AgentMode = 'detect-only' | 'self-heal';

/** Why a cycle did not reach the cluster: the status's failure reasons a cycle can end with. */
export type CycleFailure = Extract<
  FailureReason,
  | 'FetchFailed'
  | 'VerificationFailed'
  | 'SynthFailed'
  | 'ObserveFailed'
  | 'ApplyFailed'
  | 'DependencyUnresolvable'
  | 'Interrupted'
  | 'ReleaseRefused'
  | 'ReleasePending'
>;

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
  /** Its groundwork.yaml asks that revisions after it be verified (`verify: true` on this overlay's environment). */
  verify?: boolean;
  /** Its commit's message and author name (`Checkout.commitInfo`), for the status. */
  commitInfo?: { message: string; author: string };
  /** Its groundwork.yaml's `unmanaged:` for this overlay (`unmanagedFor`). @default UNMANAGED_OFF */
  unmanaged?: UnmanagedConfig;
}

/**
 * Where the last cycle spent its time, in milliseconds (for logs and the benchmark). `unchanged`:
 * the cycle found its revision and the watched objects as the last quiet cycle left them, and did
 * not plan.
 */
export interface CycleTimings {
  fetch?: number;
  synth?: number;
  plan?: number;
  apply?: number;
  health?: number;
  unchanged?: true;
}

/**
 * The last cycle that had nothing to apply and saw every list: its revision, the object caches'
 * fingerprint taken before it observed, and when (ms since the epoch). A cycle that finds the same
 * within `fullPlanEveryMs` does not plan.
 */
export interface QuietMark {
  revision: string;
  fingerprint: string;
  at: number;
}

/**
 * What the agent knows after a cycle or a drift check: the input of status, events and metrics.
 * A value: the agent replaces it with `nextAgentState` (see next-agent-state.ts), never edits it.
 */
export interface AgentState {
  readonly lastGood: GoodRevision | undefined;
  readonly lastAttemptedRevision: string | undefined;
  readonly failure: { reason: CycleFailure; message: string } | undefined;
  /** Consecutive failed cycles (for backoff). */
  readonly failures: number;
  readonly drift: readonly DriftItem[];
  /** The last full cycle's unmanaged-objects report; undefined when groundwork.yaml asks for none. */
  readonly unmanaged: UnmanagedReport | undefined;
  /** The drift most recently detected, kept after self-heal corrected it (for reports of what happened). */
  readonly lastDetected: readonly DriftItem[];
  readonly health: HealthVerdict | undefined;
  /** Desired objects of the last good revision's plan. */
  readonly inventory: number;
  /** Stage waits the last apply left pending (kept by cycles that apply nothing). */
  readonly pending: readonly { stage: string; message: string }[];
  /** What the OpenShift hooks decided on the last apply that ran them (kept by cycles that apply nothing). */
  readonly openshift: OpenShiftDecisions;
  readonly lastChanges: ChangeSet | undefined;
  readonly reconciling: boolean;
  readonly timings: CycleTimings;
  /** The platform's name from the last fetched groundwork.yaml (known before any synth succeeds). */
  readonly platformName: string | undefined;
  /** The last quiet cycle; undefined once a cycle plans (until it ends quiet again). */
  readonly quiet: QuietMark | undefined;
}

/** The state of an agent that has run no cycle. */
export const INITIAL_AGENT_STATE: AgentState = {
  lastGood: undefined,
  lastAttemptedRevision: undefined,
  failure: undefined,
  failures: 0,
  drift: [],
  unmanaged: undefined,
  lastDetected: [],
  health: undefined,
  inventory: 0,
  pending: [],
  openshift: {},
  lastChanges: undefined,
  reconciling: false,
  timings: {},
  platformName: undefined,
  quiet: undefined,
};

/** One full cycle's outcome. */
export interface CycleResult {
  revision: string | undefined;
  applied: boolean;
  failure?: { reason: CycleFailure; message: string };
  drift: readonly DriftItem[];
}
