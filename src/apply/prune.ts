import pLimit from 'p-limit';
import { GroundworkError } from '../core/errors.js';
import { describeRef, type ObjectId } from '../core/object-id.js';
import type { Plan, PruneGuardOptions } from '../plan/plan-result.js';
import { stageIndex } from '../core/stages.js';
import type { PlanItem } from '../plan/types.js';
import type { ChangeSet } from './changeset.js';
import { classifyWriteError } from './errors.js';
import type { ApplyListener } from './events.js';
import type { ApplyTarget } from './target.js';

/**
 * Propagation policy of prune deletes. `Background`: the object goes at once and the garbage
 * collector removes its dependents afterwards; for a Namespace, the namespace controller deletes
 * everything in it. Namespaces are deleted last, after every other pruned object.
 */
export const PRUNE_PROPAGATION = 'Background' as const;

/**
 * Deletes the plan's prune items if the guards allow it (see `Plan.pruneRefusal`); otherwise
 * records each as skipped with the refusal. Order: reverse stage order, Namespaces last.
 * Returns the ids that are gone (deleted, or already absent).
 */
export async function pruneItems(
  plan: Plan,
  target: ApplyTarget,
  changes: ChangeSet,
  opts: PruneGuardOptions & { listener?: ApplyListener; concurrency?: number; signal?: AbortSignal },
): Promise<Set<ObjectId>> {
  const emit = opts.listener ?? (() => {});
  const items = plan.items.filter((i) => i.action === 'prune');
  const gone = new Set<ObjectId>();
  if (items.length === 0) return gone;
  const refusal = plan.pruneRefusal(opts);
  if (refusal) {
    emit({ type: 'prune-refused', reason: refusal.reason, message: refusal.message });
    for (const i of items)
      changes.add({
        id: i.id,
        ref: i.ref,
        stage: i.stage,
        action: 'skipped',
        code: refusal.reason,
        message: refusal.message,
      });
    return gone;
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
            changes.add({ id: item.id, ref: item.ref, stage: item.stage, action: 'deleted' });
          } catch (err) {
            if ((err as { status?: number }).status === 404) {
              gone.add(item.id);
              return;
            }
            const f = classifyWriteError(err, item);
            changes.add({
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
  const failed = changes.failed.filter((e) => items.some((i) => i.id === e.id));
  if (failed.length > 0) {
    changes.error = new GroundworkError({
      code: 'PruneFailed',
      message: `${failed.length} prune(s) failed: ${failed.map((f) => describeRef(f.ref)).join(', ')}`,
    });
  }
  return gone;
}
