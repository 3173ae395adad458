import type { ChangeSet } from '../apply/changeset.js';
import type { AgentConfig, AgentState, CycleFailure, CycleResult, GoodRevision } from './agent-state.js';
import { hasPendingWork, onlyGitChanges } from './plan-scope.js';
import { applyPlan } from '../apply/apply.js';
import { GroundworkError, errorMessage, hasCode } from '../core/errors.js';
import { describe } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { rollUp } from '../health/index.js';
import type { HealthVerdict } from '../health/types.js';
import { assessHealth } from '../health/index.js';
import { detectDrift, type DriftItem } from '../plan/drift.js';
import { withOwner } from '../plan/ownership.js';
import { applyBody, needsDryRun, plan as makePlan } from '../plan/plan.js';
import { SynthValidationError, formatIssue } from '../synth/validation.js';
import type { SynthResult } from '../synth/synthesize.js';
import type { ObservedChange } from './drift-watch.js';
import { platformHooks } from '../engine/domains.js';
import type { AgentPorts } from './ports.js';
import { applyObserved, observeAndPlan, type ClusterSession } from '../engine/reconcile.js';

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
  readonly state: AgentState = {
    lastGood: undefined,
    lastAttemptedRevision: undefined,
    failure: undefined,
    failures: 0,
    drift: [],
    lastDetected: [],
    health: undefined,
    inventory: 0,
    pending: [],
    lastChanges: undefined,
    reconciling: false,
    timings: {},
    platformName: undefined,
  };
  private reported = new Set<string>();
  /**
   * The last cycle that had nothing to apply and saw every list: its revision, the object caches'
   * fingerprint taken before it observed, and when. A cycle that finds the same is a no-op.
   */
  private quiet: { revision: string; fingerprint: string; at: number } | undefined;

  constructor(
    private readonly session: ClusterSession,
    private readonly ports: AgentPorts,
    private readonly config: AgentConfig,
  ) {}

  /** One full cycle. Never throws: failures are recorded in `state` and returned. */
  async cycle(signal: AbortSignal): Promise<CycleResult> {
    this.state.reconciling = true;
    try {
      return await this.runCycle(signal);
    } finally {
      this.state.reconciling = false;
    }
  }

  private async runCycle(signal: AbortSignal): Promise<CycleResult> {
    let candidate: GoodRevision;
    const timings: AgentState['timings'] = (this.state.timings = {});
    let mark = Date.now();
    const lap = (phase: Exclude<keyof AgentState['timings'], 'unchanged'>) => {
      timings[phase] = Date.now() - mark;
      mark = Date.now();
    };
    try {
      const checkout = await this.ports.fetch(signal);
      lap('fetch');
      this.state.lastAttemptedRevision = checkout.revision;
      this.state.platformName =
        (await this.ports.platformName?.(checkout.dir).catch(() => undefined)) ?? this.state.platformName;
      if (this.state.lastGood?.revision === checkout.revision) {
        candidate = this.state.lastGood;
      } else {
        try {
          const synth = await this.ports.synth(checkout.dir, this.config.overlay);
          candidate = {
            revision: checkout.revision,
            synth,
            data: await this.ports.platformData(checkout.dir),
          };
          lap('synth');
        } catch (err) {
          return this.fail('SynthFailed', synthMessage(err));
        }
      }
    } catch (err) {
      return this.fail('FetchFailed', errorMessage(err));
    }

    // Nothing to do when git and every watched object are as the last quiet cycle left them: the
    // plan is a function of the two (and of the inventory, which only Groundwork writes).
    const fingerprint = this.session.cache?.fingerprint();
    if (
      candidate === this.state.lastGood &&
      fingerprint !== undefined &&
      this.quiet?.revision === candidate.revision &&
      this.quiet.fingerprint === fingerprint &&
      Date.now() - this.quiet.at < (this.config.fullPlanEveryMs ?? 600_000)
    ) {
      timings.unchanged = true;
      this.state.failure = undefined;
      this.state.failures = 0;
      return { revision: candidate.revision, applied: false, drift: this.state.drift };
    }
    this.quiet = undefined;

    let observed;
    try {
      observed = await observeAndPlan(this.session, candidate.synth, { revision: candidate.revision });
      lap('plan');
    } catch (err) {
      return this.fail('ObserveFailed', errorMessage(err));
    }
    const isNew = candidate !== this.state.lastGood;
    const drift = detectDrift(observed.plan, observed.observed.listed);
    // Detect-only: apply what git changed since the last good revision (nothing, for the same revision).
    const wanted =
      this.config.mode === 'detect-only'
        ? onlyGitChanges(observed.plan, candidate.synth, isNew ? this.state.lastGood?.synth : candidate.synth)
        : observed.plan;
    const mustApply =
      isNew ||
      (this.config.mode === 'self-heal' && observed.plan.hasChanges) ||
      hasPendingWork(observed.plan);

    let changes: ChangeSet | undefined;
    if (mustApply) {
      changes = await applyObserved(
        this.session,
        { ...observed, plan: wanted },
        {
          revision: candidate.revision,
          prune: this.config.prune ?? true,
          wait: false,
          timeoutMs: this.config.timeoutMs ?? 60_000,
          ...(this.config.maxPruneShare !== undefined ? { maxPruneShare: this.config.maxPruneShare } : {}),
          force: this.config.mode === 'self-heal' && !isNew,
          hooks: platformHooks(candidate.data),
          signal,
        },
      );
      this.state.lastChanges = changes;
      if (changes.error) {
        const reason = hasCode(changes.error, 'Interrupted') ? 'Interrupted' : 'ApplyFailed';
        // The apply may have written part of the new revision; the next cycle continues from there.
        this.state.lastGood = isNew ? this.state.lastGood : candidate;
        return this.fail(reason, changes.error.message, drift);
      }
      this.state.pending = changes.pending.map((p) => ({ stage: p.stage, message: p.message }));
    }
    this.state.lastGood = candidate;
    this.state.failure = undefined;
    this.state.failures = 0;
    // What this apply wrote is no longer drift: a git change (new revision) or a correction (self-heal).
    const written = new Set(
      changes?.entries.filter((e) => e.action === 'created' || e.action === 'configured').map((e) => e.id) ??
        [],
    );
    const corrected = isNew ? [] : drift.filter((d) => written.has(d.id));
    await this.reportDrift(corrected);
    for (const d of corrected) await this.corrected(d, candidate.revision);
    this.state.drift = drift.filter((d) => !written.has(d.id));
    this.state.inventory = observed.plan.items.filter((i) => i.desired).length;
    if (mustApply) lap('apply');
    try {
      this.state.health = await this.health(candidate.synth, observed.observed.live, written);
    } catch (err) {
      // A health read that fails (a list the agent may not make) fails the cycle; it must not escape.
      return this.fail('ObserveFailed', errorMessage(err), this.state.drift);
    }
    lap('health');
    // Quiet: nothing new from git, nothing to correct, and no hook waiting (an operator pin, a version
    // step, a window: hooks resume on status changes of managed objects, which move the fingerprint).
    const settled =
      !isNew &&
      !(this.config.mode === 'self-heal' && observed.plan.hasChanges) &&
      this.state.pending.length === 0;
    if (
      settled &&
      fingerprint !== undefined &&
      observed.observed.failedLists.length === 0 &&
      observed.observed.unknownKinds.size === 0
    )
      this.quiet = { revision: candidate.revision, fingerprint, at: Date.now() };
    await this.reportDrift(this.state.drift);
    return { revision: candidate.revision, applied: mustApply, drift: this.state.drift };
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
    const found = detectDrift(subset, new Map());
    this.state.drift = [...this.state.drift.filter((d) => !ids.has(d.id)), ...found];
    await this.reportDrift(found);
    if (this.config.mode === 'self-heal' && found.length > 0) {
      const heal = await applyPlan(subset, this.session.target, { force: true, wait: false, signal });
      const healed = heal.entries
        .filter((e) => e.action === 'created' || e.action === 'configured')
        .map((e) => e.id);
      for (const d of found.filter((x) => healed.includes(x.id))) await this.corrected(d, good.revision);
      this.state.drift = this.state.drift.filter((d) => !healed.includes(d.id));
    }
    return found;
  }

  /** Objects the drift watches should follow: the last good revision's desired objects. */
  get managedObjects(): K8sObject[] {
    return this.state.lastGood?.synth.manifests.map((m) => m.object) ?? [];
  }

  private async corrected(d: DriftItem, revision: string): Promise<void> {
    const what =
      d.type === 'missing'
        ? 're-created the object'
        : `restored ${d.fields.map((f) => f.path).join(', ') || 'the object'}`;
    await this.ports.event(d.ref, {
      type: 'Normal',
      reason: 'DriftCorrected',
      action: 'Heal',
      note: `${what} as in git (${revision})`,
    });
    this.reported.delete(driftKey(d));
  }

  private fail(reason: CycleFailure, message: string, drift: DriftItem[] = this.state.drift): CycleResult {
    this.state.failure = { reason, message };
    this.state.failures++;
    return { revision: this.state.lastAttemptedRevision, applied: false, failure: this.state.failure, drift };
  }

  /**
   * Health of the desired objects: from what the cycle observed, re-reading only the objects this
   * cycle wrote (their status is what changed), so a no-op cycle reads nothing more.
   */
  private async health(
    synth: SynthResult,
    observed: ReadonlyMap<string, K8sObject>,
    written: ReadonlySet<string>,
  ): Promise<HealthVerdict> {
    const reread = synth.manifests.filter((m) => written.has(m.id) || !observed.has(m.id));
    const fresh = reread.length
      ? await this.session.target.fetch(
          reread.map((m) => ({
            id: m.id,
            apiVersion: m.object.apiVersion,
            kind: m.object.kind,
            group: m.id.split('_')[2]!,
            namespace: m.object.metadata.namespace ?? '',
          })),
        )
      : new Map<string, K8sObject>();
    const live = { get: (id: string) => fresh.get(id) ?? (written.has(id) ? undefined : observed.get(id)) };
    return rollUp(
      synth.manifests.map((m) => {
        const obj = live.get(m.id);
        return {
          subject: describe(m.object),
          ...(obj
            ? assessHealth(obj)
            : { status: 'Missing' as const, reason: 'NotFound', message: 'not in the cluster' }),
        };
      }),
    );
  }

  /** One Event per newly seen drift (the recorder folds repeats into a series). */
  private async reportDrift(items: readonly DriftItem[]): Promise<void> {
    if (items.length > 0) this.state.lastDetected = [...items];
    for (const d of items) {
      const key = driftKey(d);
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const note =
        d.type === 'modified'
          ? d.fields
              .map(
                (f) =>
                  `${f.path} is ${JSON.stringify(f.actual)}, git has ${JSON.stringify(f.expected)}${f.manager ? ` (changed by ${f.manager})` : ''}`,
              )
              .join('; ')
          : d.type === 'missing'
            ? 'declared in git but missing from the cluster'
            : 'not declared in git, in a namespace Groundwork manages';
      await this.ports.event(d.ref, {
        type: 'Warning',
        reason: 'DriftDetected',
        action: 'Detect',
        note: note.slice(0, 1000),
      });
    }
  }
}

function driftKey(d: DriftItem): string {
  return `${d.id}|${d.type}|${d.fields.map((f) => `${f.path}=${JSON.stringify(f.actual)}`).join(',')}`;
}

export function synthMessage(err: unknown): string {
  if (err instanceof SynthValidationError)
    return err.issues
      .filter((i) => i.severity === 'error')
      .map(formatIssue)
      .join('; ');
  if (err instanceof GroundworkError) return err.toString();
  return errorMessage(err);
}
