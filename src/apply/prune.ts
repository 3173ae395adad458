import pLimit from 'p-limit';
import { GroundworkError } from '../core/errors.js';
import { describeRef, type ObjectId } from '../core/object-id.js';
import type { Plan, PruneGuardOptions } from '../plan/plan-result.js';
import { stageIndex } from '../core/stages.js';
import type { PlanItem } from '../plan/types.js';
import type { ChangeSetEntry } from './changeset.js';
import { classifyWriteError } from './errors.js';
import type { ApplyListener } from './apply-events.js';
import type { ApplyTarget } from './target.js';

/**
 * Propagation policy of prune deletes. `Background`: the object goes at once and the garbage
 * collector removes its dependents afterwards; for a Namespace, the namespace controller deletes
 * everything in it. Namespaces are deleted last, after every other pruned object.
 */
const PRUNE_PROPAGATION = 'Background' as const;

/** Skip reasons of prune candidates that plan keeps back (see `pruneBlocker` and the keep annotation). */
const KEPT_BACK: ReadonlySet<string> = new Set(['CrdInUse', 'NamespaceInUse', 'KeepAnnotation']);

/** What a prune did: its entries, the ids that are gone (deleted, or already absent), and why it failed. */
interface PruneOutcome {
  entries: ChangeSetEntry[];
  gone: Set<ObjectId>;
  error?: Error;
}

/**
 * Deletes the plan's prune items if the guards allow it (see `Plan.pruneRefusal`); otherwise
 * records each as skipped with the refusal. Order: reverse stage order, Namespaces last.
 * Returns what it did as a value; `error` (`PruneFailed`) when a delete failed.
 */
export async function pruneItems(
  plan: Plan,
  target: ApplyTarget,
  opts: PruneGuardOptions & { listener?: ApplyListener; concurrency?: number; signal?: AbortSignal },
): Promise<PruneOutcome> {
  const emit = opts.listener ?? (() => {});
  const items = plan.items.filter((i) => i.action === 'prune');
  const gone = new Set<ObjectId>();
  // Candidates plan kept back (a CRD in use, a Namespace in use, a keep annotation) are said, as plan says them.
  const entries: ChangeSetEntry[] = plan.items
    .filter((i) => !i.desired && i.action === 'skip' && KEPT_BACK.has(i.reason ?? ''))
    .map((i) => ({
      id: i.id,
      ref: i.ref,
      stage: i.stage,
      action: 'skipped',
      code: i.reason!,
      message: i.message ?? '',
    }));
  if (items.length === 0) return { entries, gone };
  const refusal = plan.pruneRefusal(opts);
  if (refusal) {
    emit({ type: 'prune-refused', reason: refusal.reason, message: refusal.message });
    for (const i of items)
      entries.push({
        id: i.id,
        ref: i.ref,
        stage: i.stage,
        action: 'skipped',
        code: refusal.reason,
        message: refusal.message,
      });
    return { entries, gone };
  }
  emit({ type: 'prune-start', total: items.length });
  const isNamespace = (i: PlanItem) => i.ref.kind === 'Namespace' && i.ref.group === '';
  const ordered = [...items].sort(
    (a, b) => Number(isNamespace(a)) - Number(isNamespace(b)) || stageIndex(b.stage) - stageIndex(a.stage),
  );
  const waves = [ordered.filter((i) => !isNamespace(i)), ordered.filter(isNamespace)];
  const limit = pLimit(opts.concurrency ?? 16);
  for (const wave of waves) {
    await Promise.all(
      wave.map((item) =>
        limit(async () => {
          if (opts.signal?.aborted) return;
          try {
            await target.remove(item.live!, { propagationPolicy: PRUNE_PROPAGATION });
            gone.add(item.id);
            entries.push({ id: item.id, ref: item.ref, stage: item.stage, action: 'deleted' });
          } catch (err) {
            if ((err as { status?: number }).status === 404) {
              gone.add(item.id);
              return;
            }
            const f = classifyWriteError(err, item);
            entries.push({
              id: item.id,
              ref: item.ref,
              stage: item.stage,
              action: 'failed',
              code: f.code,
              message: f.message,
            });
          }
        }),
      ),
    );
  }
  const failed = entries.filter((e) => e.action === 'failed');
  if (failed.length === 0) return { entries, gone };
  return {
    entries,
    gone,
    error: new GroundworkError({
      code: 'PruneFailed',
      message: `${failed.length} prune(s) failed: ${failed.map((f) => describeRef(f.ref)).join(', ')}`,
    }),
  };
}
