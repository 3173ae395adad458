import type { ChangeSet } from '../apply/changeset.js';
import {
  INITIAL_AGENT_STATE,
  type AgentConfig,
  type AgentState,
  type CycleFailure,
  type CycleResult,
  type CycleTimings,
  type GoodRevision,
} from './agent-state.js';
import {
  FULL_PLAN_EVERY_MS,
  applyFailure,
  canSkipPlan,
  decideApply,
  fetchesGit,
  healsDrift,
  quietMark,
  splitDrift,
} from './cycle-decision.js';
import { desiredHealth } from './desired-health.js';
import { correctedNote, detectedNote, driftKey } from './drift-notes.js';
import { nextAgentState, type AgentEvent } from './next-agent-state.js';
import { applyPlan } from '../apply/apply.js';
import { GroundworkError, errorMessage, hasCode } from '../core/errors.js';
import type { K8sObject } from '../core/object.js';
import type { ObjectId } from '../core/object-id.js';
import type { HealthVerdict } from '../health/types.js';
import { detectDrift, type DriftItem } from '../plan/drift.js';
import { withOwner } from '../plan/ownership.js';
import { applyBody, needsDryRun, plan as makePlan } from '../plan/plan.js';
import { SynthValidationError, formatIssue } from '../render/synth/validation.js';
import type { ObservedChange } from './drift-watch.js';
import { platformHooks, type OpenShiftDecisions } from '../reconcile/domains.js';
import type { AgentPorts, Checkout } from './agent-ports.js';
import { loadProject, environmentFor, type Project } from '../project/project.js';
import { trustCheck } from './trust-check.js';
import { VerificationFailedError } from '../source/source-errors.js';
import type { SyncControl } from './sync-control.js';
import { cycleEnded, driftChecked } from './notify-event.js';
import type { ClusterSession } from '../reconcile/cluster-session.js';
import { observeAndPlan } from '../reconcile/observe-and-plan.js';
import { applyObserved } from '../reconcile/apply-observed.js';
import { driftOf } from '../reconcile/drift-of.js';
import { unmanagedOf } from '../reconcile/unmanaged-of.js';
import { UNMANAGED_OFF, unmanagedFor } from '../project/unmanaged-config.js';

export type {
  AgentConfig,
  AgentMode,
  AgentState,
  CycleFailure,
  CycleResult,
  GoodRevision,
} from './agent-state.js';
export { onlyGitChanges } from './plan-scope.js';

/**
 * The sync loop's brain: fetch → synth → plan → apply → health → report, one cycle at a time,
 * plus targeted drift checks for objects the watches saw change. It keeps the last good revision:
 * a failure upstream of apply (fetch, synth, validation, observation) changes nothing and prunes
 * nothing, and drift keeps being checked (and, in self-heal mode, corrected) against that revision.
 *
 * Not a scheduler: `runner.ts` decides when cycles run (poll, webhook, backoff, leadership).
 */
export class Agent {
  private current: AgentState = INITIAL_AGENT_STATE;
  private reported = new Set<string>();
  /** The last checkout's project (or why it did not read), by revision: `projectOf`. */
  private project: { revision: string; dir: string; project: Project | Error } | undefined;
  /** What the PlatformSync's annotations asked when the last cycle read them. */
  control: SyncControl = {};
  /**
   * Reads the requests on the PlatformSync (set by the runner); undefined: its name is not known
   * before a fetch. Read at the start of each cycle, and again after the fetch when it was not known.
   */
  readControl: (() => Promise<SyncControl | undefined>) | undefined;

  constructor(
    private readonly session: ClusterSession,
    private readonly ports: AgentPorts,
    private readonly config: AgentConfig,
  ) {}

  /** What the agent knows now. A value: each event replaces it (`nextAgentState`), none edits it. */
  get state(): AgentState {
    return this.current;
  }

  /** The only place the state changes. */
  private record(event: AgentEvent): void {
    this.current = nextAgentState(this.current, event);
  }

  /** One full cycle. Never throws: failures are recorded in `state` and returned. */
  async cycle(signal: AbortSignal): Promise<CycleResult> {
    this.record({ type: 'cycle-started' });
    const timings: CycleTimings = {};
    try {
      const result = await this.runCycle(signal, timings);
      const { mode } = this.config;
      this.ports.notify?.(
        cycleEnded(result, this.state, { mode, suspended: this.control.suspended !== undefined }),
      );
      return result;
    } finally {
      this.record({ type: 'cycle-ended', timings });
    }
  }

  /** Fetch → synth → (skip, or observe → decide → apply) → health; the decisions are cycle-decision.ts. */
  private async runCycle(signal: AbortSignal, timings: CycleTimings): Promise<CycleResult> {
    let mark = Date.now();
    const lap = (phase: Exclude<keyof CycleTimings, 'unchanged'>) => {
      timings[phase] = Date.now() - mark;
      mark = Date.now();
    };
    let control = await this.readControl?.();
    if (control) this.control = control;
    const lastGood = this.state.lastGood;
    const fetched =
      lastGood && !fetchesGit({ suspended: this.control.suspended !== undefined, hasLastGood: true })
        ? { candidate: lastGood }
        : await this.fetchCandidate(signal, lap);
    if ('result' in fetched) return fetched.result;
    if (!control && (control = await this.readControl?.())) this.control = control;
    const suspended = this.control.suspended !== undefined;
    const { candidate } = fetched;
    const isNew = candidate !== lastGood;

    const fingerprint = this.session.cache?.fingerprint();
    const { mode, fullPlanEveryMs = FULL_PLAN_EVERY_MS } = this.config;
    const revision = candidate.revision;
    if (
      canSkipPlan({ quiet: this.state.quiet, revision, isNew, fingerprint, now: Date.now(), fullPlanEveryMs })
    ) {
      timings.unchanged = true;
      this.record({ type: 'unchanged' });
      return { revision, applied: false, drift: this.state.drift };
    }
    this.record({ type: 'planning' });

    let observed;
    try {
      observed = await observeAndPlan(this.session, candidate.synth, { revision });
      lap('plan');
    } catch (err) {
      return this.fail('ObserveFailed', errorMessage(err));
    }
    // Objects Groundwork did not apply are listed only when groundwork.yaml asks, and are drift
    // only when it says failOn.
    const unmanaged = await unmanagedOf(this.session, observed, candidate.unmanaged ?? UNMANAGED_OFF);
    const drift = driftOf(observed, unmanaged);
    const decision = decideApply({
      mode,
      plan: observed.plan,
      isNew,
      candidate: candidate.synth,
      lastGood: lastGood?.synth,
      suspended,
    });
    if (suspended) {
      // Nothing applied: every drift stays, reported (Events, status) and left as it is.
      this.record({ type: 'held', drift, unmanaged });
      await this.reportDrift(drift);
      return { revision, applied: false, drift };
    }

    let changes: ChangeSet | undefined;
    if (decision.apply) {
      const decided: OpenShiftDecisions = {};
      changes = await applyObserved(
        this.session,
        { ...observed, plan: decision.plan },
        {
          revision,
          prune: this.config.prune ?? true,
          wait: false,
          timeoutMs: this.config.timeoutMs ?? 60_000,
          ...(this.config.maxPruneShare !== undefined ? { maxPruneShare: this.config.maxPruneShare } : {}),
          force: decision.force,
          hooks: platformHooks(candidate.data, { publish: (d) => Object.assign(decided, d) }),
          signal,
        },
      );
      this.record({ type: 'decided', openshift: decided, partial: !!changes.error });
      // The apply may have written part of the new revision; the next cycle continues from there.
      if (changes.error) return this.fail(applyFailure(changes.error), changes.error.message, drift, changes);
    }
    const { written, corrected, remaining } = splitDrift({ drift, changes, isNew });
    this.record({
      type: 'applied',
      good: candidate,
      changes,
      drift: remaining,
      unmanaged,
      inventory: observed.plan.items.filter((i) => i.desired).length,
    });
    await this.reportDrift(corrected);
    for (const d of corrected) await this.corrected(d, revision);
    if (decision.apply) lap('apply');
    let health: HealthVerdict;
    try {
      health = await desiredHealth(this.session.target, candidate.synth, observed.observed.live, written);
    } catch (err) {
      // A health read that fails (a list the agent may not make) fails the cycle; it must not escape.
      return this.fail('ObserveFailed', errorMessage(err), this.state.drift);
    }
    lap('health');
    const { failedLists, unknownKinds } = observed.observed;
    const quiet = quietMark({
      mode,
      isNew,
      plan: observed.plan,
      pending: this.state.pending,
      incomplete: failedLists.length > 0 || unknownKinds.size > 0,
      revision,
      fingerprint,
      now: Date.now(),
    });
    this.record({ type: 'assessed', health, quiet });
    await this.reportDrift(this.state.drift);
    return { revision, applied: decision.apply, drift: this.state.drift };
  }

  /**
   * The cycle's candidate: the last good revision when git has not moved, else the fetched one,
   * synthesized. Failures are recorded and returned as the cycle's result.
   */
  private async fetchCandidate(
    signal: AbortSignal,
    lap: (phase: 'fetch' | 'synth') => void,
  ): Promise<{ candidate: GoodRevision } | { result: CycleResult }> {
    try {
      const checkout = await this.ports.fetch(signal);
      lap('fetch');
      const project = await this.projectOf(checkout);
      const read = project instanceof Error ? undefined : project;
      this.record({ type: 'fetched', revision: checkout.revision, platformName: read?.name });
      if (read) await this.ports.useProject?.(read);
      this.ports.notify?.({ type: 'fetched', revision: checkout.revision });
      const lastGood = this.state.lastGood;
      // Before synth, and for the applied revision too (the keys may have been rotated since).
      const trust = trustCheck({
        checkout,
        lastGood,
        requested: (read && environmentFor(read, this.config.overlay)?.verify) ?? false,
      });
      if (trust.refusal) return { result: this.fail('VerificationFailed', trust.refusal) };
      if (lastGood?.revision === checkout.revision) return { candidate: lastGood };
      try {
        if (!read) throw project;
        const synth = await this.ports.synth(read, this.config.overlay);
        const data = await this.ports.platformData(read);
        lap('synth');
        return {
          candidate: {
            revision: checkout.revision,
            synth,
            data,
            verify: trust.verify,
            unmanaged: unmanagedFor(read, this.config.overlay),
            ...(checkout.commitInfo ? { commitInfo: checkout.commitInfo } : {}),
          },
        };
      } catch (err) {
        return { result: this.fail('SynthFailed', synthMessage(err)) };
      }
    } catch (err) {
      if (hasCode(err, 'VerificationFailed') || hasCode(err, 'TrustedKeysInvalid')) {
        // The refused revision is the one attempted (the status names it), not the last fetched.
        const revision = err instanceof VerificationFailedError ? err.revision : undefined;
        if (revision) this.record({ type: 'fetched', revision, platformName: undefined });
        return { result: this.fail('VerificationFailed', errorMessage(err)) };
      }
      // The hub's release (`--hub`): refused, or none yet; the cluster keeps its revision.
      if (hasCode(err, 'ReleaseRefused')) return { result: this.fail('ReleaseRefused', errorMessage(err)) };
      if (hasCode(err, 'ReleasePending')) return { result: this.fail('ReleasePending', errorMessage(err)) };
      return { result: this.fail('FetchFailed', errorMessage(err)) };
    }
  }

  /**
   * The checkout's project (groundwork.yaml), read once per revision: a later cycle on the same
   * checkout reuses it. An unreadable one is returned as its error (synth reports it).
   */
  private async projectOf(checkout: Checkout): Promise<Project | Error> {
    const known = this.project;
    if (known?.revision === checkout.revision && known.dir === checkout.dir) return known.project;
    const project = await loadProject(checkout.dir).catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    this.project = { revision: checkout.revision, dir: checkout.dir, project };
    return project;
  }

  /**
   * Re-plans just the objects the watches saw change, against the last good revision, and reports
   * (and in self-heal mode corrects) their drift. Returns the drift found among them.
   */
  async checkChanges(changes: readonly ObservedChange[], signal: AbortSignal): Promise<DriftItem[]> {
    const good = this.state.lastGood;
    if (!good || changes.length === 0) return [];
    const ids = new Set(changes.map((c) => c.id));
    // Stamped as a full plan stamps them: a body without the annotation would remove it.
    const manifests = withOwner(
      good.synth.manifests.filter((m) => ids.has(m.id)),
      this.session.inventory.owner(good.synth.platform, good.synth.overlay),
    );
    const live = new Map(changes.filter((c) => c.type !== 'DELETED').map((c) => [c.id, c.object] as const));
    const dryIds = new Set(needsDryRun(manifests, live));
    const dryRun = await this.session.observer.dryRun(
      manifests
        .filter((m) => dryIds.has(m.id))
        .map((m) => ({ id: m.id, body: applyBody(m.object, true), force: true })),
    );
    const subset = makePlan(
      manifests,
      { live, dryRun, inventory: undefined, failedLists: [], unknownKinds: new Set() },
      { platform: good.synth.platform, overlay: good.synth.overlay, revision: good.revision },
    );
    const found = detectDrift(subset);
    this.record({ type: 'drift-checked', ids, found });
    await this.reportDrift(found);
    this.ports.notify?.(driftChecked(found, this.config.mode, good.revision));
    const suspended = this.control.suspended !== undefined;
    if (healsDrift({ mode: this.config.mode, suspended }) && found.length > 0) {
      const heal = await applyPlan(subset, this.session.target, { force: true, wait: false, signal });
      const { written: healed } = splitDrift({ drift: [], changes: heal, isNew: false });
      for (const d of found.filter((x) => healed.has(x.id))) await this.corrected(d, good.revision);
      this.record({ type: 'drift-healed', ids: healed });
    }
    return found;
  }

  /**
   * Objects the drift watches and caches should follow: the last good revision's desired objects,
   * and their ids (the manifests' own strings: one set for both, where each built its own from the
   * objects, two sets of fresh strings at 20,000 objects).
   */
  get managed(): { objects: K8sObject[]; ids: ReadonlySet<ObjectId> } {
    const manifests = this.state.lastGood?.synth.manifests ?? [];
    return { objects: manifests.map((m) => m.object), ids: new Set(manifests.map((m) => m.id)) };
  }

  private async corrected(d: DriftItem, revision: string): Promise<void> {
    await this.ports.event(d.ref, {
      type: 'Normal',
      reason: 'DriftCorrected',
      action: 'Heal',
      note: correctedNote(d, revision),
    });
    this.reported.delete(driftKey(d));
  }

  /** Records a failed cycle and returns its result (`drift`: what the cycle found, if it got that far). */
  private fail(
    reason: CycleFailure,
    message: string,
    drift: readonly DriftItem[] = this.state.drift,
    changes?: ChangeSet,
  ): CycleResult {
    this.record({ type: 'failed', reason, message, ...(changes ? { changes } : {}) });
    return {
      revision: this.state.lastAttemptedRevision,
      applied: false,
      failure: { reason, message },
      drift,
    };
  }

  /** One Event per newly seen drift (the recorder folds repeats into a series). */
  private async reportDrift(items: readonly DriftItem[]): Promise<void> {
    this.record({ type: 'drift-reported', items });
    for (const d of items) {
      const key = driftKey(d);
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      await this.ports.event(d.ref, {
        type: 'Warning',
        reason: 'DriftDetected',
        action: 'Detect',
        note: detectedNote(d),
      });
    }
  }
}

/** A synth failure as one line: the validation errors, or the error. */
export function synthMessage(err: unknown): string {
  if (err instanceof SynthValidationError)
    return err.issues
      .filter((i) => i.severity === 'error')
      .map(formatIssue)
      .join('; ');
  if (err instanceof GroundworkError) return err.toString();
  return errorMessage(err);
}
