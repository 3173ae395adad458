import pLimit from 'p-limit';
import { GroundworkError } from '../core/errors.js';
import type { ObjectId } from '../core/object-id.js';
import { applyBody } from '../plan/plan.js';
import type { Plan, PruneGuardOptions } from '../plan/plan-result.js';
import { STAGES, type StageName, type StageSpec } from '../core/stages.js';
import type { PlanItem } from '../plan/types.js';
import { ChangeSet } from './changeset.js';
import { classifyWriteError, isImmutable } from './errors.js';
import type { ApplyListener } from './events.js';
import { sameInventory, type Inventory } from './inventory.js';
import { isUnsendable, recordAfterApply, recordBeforeWrite } from './inventory-record.js';
import { pruneItems } from './prune.js';
import type { StageContext, StageHooks } from './stage-hook.js';
import { crdsEstablished, csvsSucceeded, objectsHealthy } from './stage-waits.js';
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
  /** Domain behaviour per stage (see `src/engine/domains.ts`). @default none */
  hooks?: StageHooks;
  listener?: ApplyListener;
  /** Abort: finish the writes in flight, start no new ones, and return the partial change set. */
  signal?: AbortSignal;
}

/**
 * Executes a plan stage by stage (see `STAGES`): writes each stage's creates and updates with
 * bounded concurrency, waits as the stage table says, prunes last (namespaces after everything
 * else) when allowed by the guards, and keeps the inventory ahead of the cluster: objects are
 * recorded before they are written, and forgotten only after they are deleted. When the apply
 * ends, finished or not, the inventory is set to what exists because of it (`recordAfterApply`):
 * an object that failed to apply is not kept there unless it already was. Objects plan found
 * `NotOwned` are never deleted: they are reported as skipped and dropped from the inventory.
 *
 * Never throws for cluster errors: the returned change set carries `error` and is partial when a
 * stage fails.
 */
export async function applyPlan(
  plan: Plan,
  target: ApplyTarget,
  opts: ApplyOptions = {},
): Promise<ChangeSet> {
  const changes = new ChangeSet();
  const emit = opts.listener ?? (() => {});
  const previous = new Set(opts.inventory?.previous?.objects ?? []);
  let recorded = false;
  let pruned = new Set<ObjectId>();
  const record = async (objects: Iterable<ObjectId>) => {
    if (!opts.inventory) return;
    const inv: Inventory = {
      platform: plan.platform,
      overlay: plan.overlay,
      revision: opts.inventory.revision,
      objects: new Set(objects),
    };
    if (sameInventory(opts.inventory.previous, inv)) return;
    await opts.inventory.write(inv);
    opts.inventory.previous = inv;
    emit({ type: 'inventory-written', objects: inv.objects.size });
  };

  try {
    const refusals: string[] = [];
    for (const stage of STAGES) {
      const hook = opts.hooks?.[stage.name];
      if (!hook?.preflight) continue;
      const items = plan.items.filter((i) => i.stage === stage.name && i.desired);
      const refusal = await hook.preflight(stageContext(stage.name, items, target, changes, opts));
      if (refusal) refusals.push(refusal);
    }
    if (refusals.length > 0) {
      changes.error = new GroundworkError({
        code: 'PreflightFailed',
        message: `nothing was applied: ${refusals.join('; ')}`,
      });
      return changes;
    }
    // Record first: an apply that dies half-way still knows every object it may have created.
    await record(recordBeforeWrite(previous, plan));
    recorded = true;
    for (const stage of STAGES) {
      const items = plan.items.filter((i) => i.stage === stage.name && i.desired);
      if (items.length === 0) continue;
      await runStage(stage, items, target, changes, opts);
      if (changes.error) break;
    }
    if (!changes.error && opts.prune) pruned = await pruneItems(plan, target, changes, opts);
  } catch (err) {
    changes.error = err instanceof Error ? err : new Error(String(err));
  }
  // Set the inventory to what exists because of this apply, after a failure too: an object the
  // server refused is not kept (it would stay in every later plan), one never reached neither.
  // What is not Groundwork's is dropped from it, and said once, as skipped.
  if (recorded) {
    for (const i of plan.items.filter((x) => x.reason === 'NotOwned'))
      changes.add({
        id: i.id,
        ref: i.ref,
        stage: i.stage,
        action: 'skipped',
        code: 'NotOwned',
        message: i.message ?? '',
      });
    try {
      await record(recordAfterApply(previous, plan, changes, pruned));
    } catch (err) {
      changes.error ??= err instanceof Error ? err : new Error(String(err));
    }
  }
  return changes;
}

async function runStage(
  stage: StageSpec,
  items: PlanItem[],
  target: ApplyTarget,
  changes: ChangeSet,
  opts: ApplyOptions,
): Promise<void> {
  const emit = opts.listener ?? (() => {});
  const hook = opts.hooks?.[stage.name];
  const ctx = stageContext(stage.name, items, target, changes, opts);
  const total = items.length;
  let done = 0;
  emit({ type: 'stage-start', stage: stage.name, total });
  await hook?.beforeApply?.(ctx);

  // Kinds from CRDs created earlier in this apply, or installed by an operator, must be served first.
  // Items plan already knows cannot be sent (a kind nothing will serve) fail below, without a wait.
  const unserved = await unservedKinds(
    target,
    items.filter((i) => !isUnsendable(i)),
  );
  if (unserved.length > 0) {
    if (opts.wait === false && stage.name === 'operands') {
      for (const i of items.filter((x) => unserved.includes(kindKey(x)))) {
        changes.add({
          id: i.id,
          ref: i.ref,
          stage: stage.name,
          action: 'skipped',
          code: 'AwaitsOperator',
          message: `${i.ref.kind} not served yet; applied on a later run`,
        });
      }
      items = items.filter((x) => !unserved.includes(kindKey(x)));
    } else {
      await timed(stage.name, `kinds served: ${unserved.join(', ')}`, opts, async () => {
        const still = await unservedKinds(target, items);
        return { done: still.length === 0, pending: still.map((k) => `${k} not served`) };
      });
    }
  }

  const limit = pLimit(opts.concurrency ?? 16);
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        if (opts.signal?.aborted) return;
        const entry = await writeItem(item, target, opts);
        changes.add({ id: item.id, ref: item.ref, stage: stage.name, ...entry });
        emit({
          type: 'object',
          stage: stage.name,
          id: item.id,
          action: entry.action,
          done: ++done,
          total,
          ...(entry.message ? { message: entry.message } : {}),
        });
      }),
    ),
  );
  if (opts.signal?.aborted) {
    changes.error = new GroundworkError({
      code: 'Interrupted',
      subject: `stage ${stage.name}`,
      message: 'stopped after the objects in flight',
    });
    return;
  }
  const failed = changes.failed.filter((e) => e.stage === stage.name);
  if (failed.length > 0) {
    changes.error = new GroundworkError({
      code: 'StageFailed',
      subject: `stage ${stage.name}`,
      message: `${failed.length} object(s) failed: ${failed.map((f) => f.message).join('; ')}`,
    });
    return;
  }

  const check = hook?.check ?? defaultCheck(stage, items, target, opts);
  if (check) {
    const outcome = await timed(
      stage.name,
      stage.description,
      opts,
      () => check(ctx),
      hook?.duringWait ? () => hook.duringWait!(ctx) : undefined,
    );
    if (outcome.outcome === 'pending') changes.pending.push({ stage: stage.name, message: outcome.message });
  }
  emit({ type: 'stage-done', stage: stage.name });
}

function stageContext(
  stage: StageName,
  items: readonly PlanItem[],
  target: ApplyTarget,
  changes: ChangeSet,
  opts: ApplyOptions,
): StageContext {
  const emit = opts.listener ?? (() => {});
  return {
    stage,
    items,
    target,
    changes,
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

async function writeItem(
  item: PlanItem,
  target: ApplyTarget,
  opts: ApplyOptions,
): Promise<{
  action: 'created' | 'configured' | 'unchanged' | 'skipped' | 'failed';
  message?: string;
  code?: string;
}> {
  if (item.action === 'unchanged') return { action: 'unchanged' };
  if (item.action === 'skip')
    return {
      action: 'skipped',
      ...(item.message ? { message: item.message } : {}),
      ...(item.reason ? { code: item.reason } : {}),
    };
  if (isUnsendable(item))
    return { action: 'failed', code: item.problem!.code, message: item.problem!.message };
  const force = opts.force === true || item.policy.forceConflicts;
  const body = applyBody(item.desired!, item.action === 'update');
  try {
    await target.apply(body, { force });
    return { action: item.action === 'create' ? 'created' : 'configured' };
  } catch (err) {
    if (isImmutable(err) && item.policy.recreateOnImmutable && item.live) {
      try {
        await target.remove(item.live, { propagationPolicy: 'Foreground' });
        await waitFor(
          async () => {
            const gone = !(
              await target.fetch([
                {
                  id: item.id,
                  apiVersion: item.desired!.apiVersion,
                  kind: item.ref.kind,
                  group: item.ref.group,
                  namespace: item.ref.namespace,
                },
              ])
            ).has(item.id);
            return {
              done: gone,
              pending: gone ? [] : [`${item.ref.kind}/${item.ref.name} still terminating`],
            };
          },
          {
            what: `recreate ${item.ref.kind}/${item.ref.name}`,
            timeoutMs: opts.timeoutMs ?? 300_000,
            intervalMs: 200,
          },
        );
        await target.apply(applyBody(item.desired!, false), { force });
        return { action: 'configured', message: 'recreated (immutable field changed)' };
      } catch (again) {
        const f = classifyWriteError(again, item);
        return { action: 'failed', code: f.code, message: `recreate failed: ${f.message}` };
      }
    }
    const f = classifyWriteError(err, item);
    return { action: 'failed', code: f.code, message: f.message };
  }
}

const kindKey = (i: PlanItem) => `${i.desired!.apiVersion}/${i.ref.kind}`;

async function unservedKinds(target: ApplyTarget, items: readonly PlanItem[]): Promise<string[]> {
  const kinds = [
    ...new Set(items.filter((i) => i.action === 'create' || i.action === 'update').map(kindKey)),
  ];
  const served = await Promise.all(
    kinds.map((k) => {
      const slash = k.lastIndexOf('/');
      return target.serves(k.slice(0, slash), k.slice(slash + 1));
    }),
  );
  return kinds.filter((_, i) => !served[i]);
}
