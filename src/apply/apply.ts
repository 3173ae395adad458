import { GroundworkError } from '../core/errors.js';
import { describeRef, type ObjectId } from '../core/object-id.js';
import type { Plan, PruneGuardOptions } from '../plan/plan-result.js';
import { STAGES, type StageName, type StageSpec } from '../core/stages.js';
import { stageWrites } from '../plan/hook-order.js';
import type { PlanItem } from '../plan/types.js';
import { ChangeSet, type ChangeSetEntry, type PendingStage } from './changeset.js';
import type { ApplyListener } from './apply-events.js';
import { sameInventory, type Inventory } from './inventory.js';
import { isUnsendable, recordAfterApply, recordBeforeWrite } from './inventory-record.js';
import { writeItems } from './write-items.js';
import { pruneItems } from './prune.js';
import type { StageContext, StageHooks } from './stage-hook.js';
import { crdsEstablished, csvsSucceeded, hookDone, objectsHealthy } from './stage-waits.js';
import type { ApplyTarget } from './target.js';
import { waitFor, type WaitCheck } from './wait.js';

export interface ApplyOptions extends PruneGuardOptions {
  /** Force field-manager conflicts for every object. @default false (per-object annotation still applies) */
  force?: boolean;
  /** Delete inventory objects that are no longer desired. @default false */
  prune?: boolean;
  /** Wait for health between stages (CSVs, operands, pools). CRDs are always waited for. @default true */
  wait?: boolean;
  /** Timeout of each stage wait. @default 300_000 */
  timeoutMs?: number;
  /** Parallel writes inside a stage. @default 16 */
  concurrency?: number;
  /** Inventory bookkeeping; without it nothing is recorded and nothing is pruned. */
  inventory?: { previous: Inventory | undefined; write(inv: Inventory): Promise<void>; revision: string };
  /** Domain behaviour per stage (see `src/reconcile/domains.ts`). @default none */
  hooks?: StageHooks;
  listener?: ApplyListener;
  /** Abort: finish the writes in flight, start no new ones, and return the partial change set. */
  signal?: AbortSignal;
}

/**
 * Executes a plan stage by stage (see `STAGES`): writes each stage's creates and updates with
 * bounded concurrency, waits as the stage table says, then writes the stage's hooks
 * (`groundwork.io/hook-weight`) one at a time in `stageWrites` order, waiting for each (`hookDone`)
 * even when `wait` is false: a failed hook stops the apply (`HookFailed`, nothing pruned); a hook
 * still running at `timeoutMs` is `WaitTimeout`. It prunes last (namespaces after everything
 * else) when allowed by the guards, and keeps the inventory ahead of the cluster: objects are
 * recorded before they are written, and forgotten only after they are deleted. When the apply
 * ends, finished or not, the inventory is set to what exists because of it (`recordAfterApply`):
 * an object that failed to apply is not kept there unless it already was. Objects plan found
 * `NotOwned` are never deleted: they are reported as skipped and dropped from the inventory.
 *
 * A field-manager conflict does not stop the apply: every other object is written, and the change
 * set's `error` (`ConflictsRemain`) lists each conflict. Never throws for cluster errors: the
 * returned change set carries `error` and is partial when a stage fails. Returns a new value; neither `plan` nor `opts` (its `inventory.previous` included)
 * is changed.
 */
export async function applyPlan(
  plan: Plan,
  target: ApplyTarget,
  opts: ApplyOptions = {},
): Promise<ChangeSet> {
  const emit = opts.listener ?? (() => {});
  const previous = new Set(opts.inventory?.previous?.objects ?? []);
  const entries: ChangeSetEntry[] = [];
  const pending: PendingStage[] = [];
  let error: Error | undefined;
  let recorded = false;
  let pruned = new Set<ObjectId>();
  // The inventory as the cluster holds it: read before the apply, then as this apply last wrote it.
  let stored = opts.inventory?.previous;
  const record = async (objects: Iterable<ObjectId>) => {
    if (!opts.inventory) return;
    const inv: Inventory = {
      platform: plan.platform,
      overlay: plan.overlay,
      revision: opts.inventory.revision,
      objects: new Set(objects),
    };
    if (sameInventory(stored, inv)) return;
    await opts.inventory.write(inv);
    stored = inv;
    emit({ type: 'inventory-written', objects: inv.objects.size });
  };

  try {
    const refusals = await preflight(plan, target, opts);
    if (refusals.length > 0)
      return new ChangeSet({
        error: new GroundworkError({
          code: 'PreflightFailed',
          message: `nothing was applied: ${refusals.join('; ')}`,
        }),
      });
    // Record first: an apply that dies half-way still knows every object it may have created.
    await record(recordBeforeWrite(previous, plan));
    recorded = true;
    for (const stage of STAGES) {
      const items = plan.items.filter((i) => i.stage === stage.name && i.desired);
      if (items.length === 0) continue;
      const outcome = await runStage(stage, items, target, opts);
      entries.push(...outcome.entries);
      if (outcome.pending) pending.push(outcome.pending);
      error = outcome.error;
      if (error) break;
    }
    if (!error && opts.prune) {
      const outcome = await pruneItems(plan, target, opts);
      entries.push(...outcome.entries);
      pruned = outcome.gone;
      error = outcome.error;
    }
    error ??= conflictsRemain(entries);
  } catch (err) {
    error = asError(err);
  }
  // Set the inventory to what exists because of this apply, after a failure too: an object the
  // server refused is not kept (it would stay in every later plan), one never reached neither.
  // What is not Groundwork's is dropped from it, and said once, as skipped.
  if (recorded) {
    for (const i of plan.items.filter((x) => x.reason === 'NotOwned'))
      entries.push({
        id: i.id,
        ref: i.ref,
        stage: i.stage,
        action: 'skipped',
        code: 'NotOwned',
        message: i.message ?? '',
      });
    try {
      await record(recordAfterApply(previous, plan, new ChangeSet({ entries }), pruned));
    } catch (err) {
      error ??= asError(err);
    }
  }
  return new ChangeSet({ entries, pending, ...(error ? { error } : {}) });
}

/** The hooks' refusals, asked of every hooked stage before anything is written. */
async function preflight(plan: Plan, target: ApplyTarget, opts: ApplyOptions): Promise<string[]> {
  const refusals: string[] = [];
  for (const stage of STAGES) {
    const hook = opts.hooks?.[stage.name];
    if (!hook?.preflight) continue;
    const items = plan.items.filter((i) => i.stage === stage.name && i.desired);
    const refusal = await hook.preflight(stageContext(stage.name, items, target, opts));
    if (refusal) refusals.push(refusal);
  }
  return refusals;
}

/** What one stage did: its entries, a wait it left pending, and the error that stopped the apply there. */
interface StageOutcome {
  entries: ChangeSetEntry[];
  pending?: PendingStage;
  error?: Error;
}

/** Writes one stage and waits as its spec says. Never throws: a failure is the outcome's `error`. */
async function runStage(
  stage: StageSpec,
  items: PlanItem[],
  target: ApplyTarget,
  opts: ApplyOptions,
): Promise<StageOutcome> {
  const emit = opts.listener ?? (() => {});
  const hook = opts.hooks?.[stage.name];
  const ctx = stageContext(stage.name, items, target, opts);
  const entries: ChangeSetEntry[] = [];
  try {
    emit({ type: 'stage-start', stage: stage.name, total: items.length });
    await hook?.beforeApply?.(ctx);

    // Kinds from CRDs created earlier in this apply, or installed by an operator, must be served first.
    // Items plan already knows cannot be sent (a kind nothing will serve) fail below, without a wait.
    const unserved = await unservedKinds(
      target,
      items.filter((i) => !isUnsendable(i)),
    );
    let writing = items;
    if (unserved.length > 0) {
      if (opts.wait === false && stage.name === 'operands') {
        for (const i of items.filter((x) => unserved.includes(kindKey(x))))
          entries.push({
            id: i.id,
            ref: i.ref,
            stage: stage.name,
            action: 'skipped',
            code: 'AwaitsOperator',
            message: `${i.ref.kind} not served yet; applied on a later run`,
          });
        writing = items.filter((x) => !unserved.includes(kindKey(x)));
      } else {
        await timed(stage.name, `kinds served: ${unserved.join(', ')}`, opts, async () => {
          const still = await unservedKinds(target, items);
          return { done: still.length === 0, pending: still.map((k) => `${k} not served`) };
        });
      }
    }

    // The stage's objects together, then its hooks one at a time (see `stageWrites`).
    const { objects, hooks } = stageWrites(writing);
    const progress = { total: items.length, done: entries.length };
    entries.push(...(await writeItems(stage.name, objects, progress, target, opts)));
    const stopped = writeStopped(stage.name, entries, opts);
    if (stopped) return { entries, error: stopped };

    let pending: PendingStage | undefined;
    const check = hook?.check ?? defaultCheck(stage, objects, target, opts);
    if (check) {
      const outcome = await timed(
        stage.name,
        stage.description,
        opts,
        () => check(ctx),
        hook?.duringWait ? () => hook.duringWait!(ctx) : undefined,
      );
      if (outcome.outcome === 'pending') pending = { stage: stage.name, message: outcome.message };
    }
    for (const h of hooks) {
      const hookProgress = { total: items.length, done: entries.length };
      entries.push(...(await writeItems(stage.name, [h], hookProgress, target, opts)));
      const failed = writeStopped(stage.name, entries, opts);
      if (failed) return { entries, error: failed };
      // Waited for even without `wait` (as CRDs are): what comes after a hook needs its work done.
      // A create-only hook that is gone (it ran once) has nothing left to wait for, nor has a hook
      // helm would not run in this apply (`HookPhase`: src/plan/hook-phase.ts).
      if (h.action === 'skip' && (!h.live || h.reason === 'HookPhase')) continue;
      await timed(stage.name, `hook ${describeRef(h.ref)}`, { ...opts, wait: true }, () =>
        hookDone(target, h),
      );
    }
    emit({ type: 'stage-done', stage: stage.name });
    return { entries, ...(pending ? { pending } : {}) };
  } catch (err) {
    // A hook or a wait that throws stops the apply; what the stage wrote stays in the change set.
    return { entries, error: asError(err) };
  }
}

/**
 * The error that stops a stage after writes: an abort, or objects the server refused. A
 * field-manager conflict leaves its object as it is and stops nothing: the objects after it are
 * written, and every conflict is listed when the apply ends (`conflictsRemain`).
 */
function writeStopped(
  stage: StageName,
  entries: readonly ChangeSetEntry[],
  opts: ApplyOptions,
): GroundworkError | undefined {
  if (opts.signal?.aborted)
    return new GroundworkError({
      code: 'Interrupted',
      subject: `stage ${stage}`,
      message: 'stopped after the objects in flight',
    });
  const failed = entries.filter((e) => e.action === 'failed' && e.code !== 'Conflict');
  if (failed.length === 0) return undefined;
  return new GroundworkError({
    code: 'StageFailed',
    subject: `stage ${stage}`,
    message: `${failed.length} object(s) failed: ${failed.map((f) => f.message).join('; ')}`,
  });
}

/** The error of an apply that ran to the end with field-manager conflicts left: each one, named. */
function conflictsRemain(entries: readonly ChangeSetEntry[]): GroundworkError | undefined {
  const conflicts = entries.filter((e) => e.action === 'failed' && e.code === 'Conflict');
  if (conflicts.length === 0) return undefined;
  return new GroundworkError({
    code: 'ConflictsRemain',
    subject: `${conflicts.length} object(s)`,
    message: `every other object was applied; field manager conflicts remain: ${conflicts.map((c) => c.message).join('; ')}`,
    fix: 'take the fields with --force-conflicts (or annotate groundwork.io/conflicts: force), or remove them from git',
  });
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function stageContext(
  stage: StageName,
  items: readonly PlanItem[],
  target: ApplyTarget,
  opts: ApplyOptions,
): StageContext {
  const emit = opts.listener ?? (() => {});
  return {
    stage,
    items,
    target,
    wait: opts.wait !== false,
    notice: (message) => emit({ type: 'notice', stage, message }),
  };
}

function defaultCheck(
  stage: StageSpec,
  items: PlanItem[],
  target: ApplyTarget,
  opts: ApplyOptions,
): ((ctx: StageContext) => Promise<WaitCheck>) | undefined {
  const written = items.filter((i) => i.action !== 'skip');
  if (stage.wait === 'crds-established') return () => crdsEstablished(target, written);
  if (opts.wait === false) return undefined;
  if (stage.wait === 'csvs-succeeded') return () => csvsSucceeded(target, written);
  if (stage.wait === 'healthy') return () => objectsHealthy(target, written);
  if (stage.wait === 'pools-updated') {
    const pools = written.filter((i) => i.ref.kind === 'MachineConfigPool');
    return pools.length ? () => objectsHealthy(target, pools, { failOnDegraded: true }) : undefined;
  }
  return undefined;
}

async function timed(
  stage: StageName,
  what: string,
  opts: ApplyOptions,
  check: () => Promise<WaitCheck>,
  tick?: () => Promise<void>,
) {
  const emit = opts.listener ?? (() => {});
  const timeoutMs = opts.timeoutMs ?? 300_000;
  emit({ type: 'wait-start', stage, what, timeoutMs, ...(opts.wait === false ? { once: true } : {}) });
  const outcome = await waitFor(check, {
    what: `${stage}: ${what}`,
    timeoutMs,
    signal: opts.signal,
    ...(tick ? { tick } : {}),
    onProgress: (pending, elapsedMs) => emit({ type: 'wait-progress', stage, what, pending, elapsedMs }),
  });
  emit({ type: 'wait-done', stage, what, elapsedMs: outcome.elapsedMs, outcome: outcome.outcome });
  return outcome;
}

const kindKey = (i: PlanItem) => `${i.desired!.apiVersion}/${i.ref.kind}`;

async function unservedKinds(target: ApplyTarget, items: readonly PlanItem[]): Promise<string[]> {
  const kinds = [
    ...new Set(
      items
        .filter((i) => i.action === 'create' || i.action === 'update' || i.action === 'adopt')
        .map(kindKey),
    ),
  ];
  const served = await Promise.all(
    kinds.map((k) => {
      const slash = k.lastIndexOf('/');
      return target.serves(k.slice(0, slash), k.slice(slash + 1));
    }),
  );
  return kinds.filter((_, i) => !served[i]);
}
