import pLimit from 'p-limit';
import type { StageName } from '../core/stages.js';
import { errorMessage } from '../core/errors.js';
import { describeRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { isManualManager } from '../plan/out-of-band.js';
import { applyBody } from '../plan/plan.js';
import type { PlanItem } from '../plan/types.js';
import type { ChangeSetEntry } from './changeset.js';
import type { ApplyListener } from './apply-events.js';
import { classifyWriteError, isImmutable } from './errors.js';
import { isUnsendable } from './inventory-record.js';
import type { ApplyTarget } from './target.js';
import { waitFor } from './wait.js';
import type { EntryCode } from '../plan/entry-codes.js';

/** The part of `ApplyOptions` that writing objects reads (same meanings and defaults). */
export interface WriteOptions {
  force?: boolean;
  timeoutMs?: number;
  concurrency?: number;
  listener?: ApplyListener;
  signal?: AbortSignal;
}

/**
 * Writes items with bounded concurrency; entries in the order the writes finish. Stops starting new
 * ones on abort. Progress events count `progress.done` objects of the stage's `progress.total` as
 * written before these (a stage written in parts: its objects, then each hook).
 */
export async function writeItems(
  stage: StageName,
  items: readonly PlanItem[],
  progress: { total: number; done?: number },
  target: ApplyTarget,
  opts: WriteOptions,
): Promise<ChangeSetEntry[]> {
  const emit = opts.listener ?? (() => {});
  const limit = pLimit(opts.concurrency ?? 16);
  const done: ChangeSetEntry[] = [];
  const before = progress.done ?? 0;
  const total = progress.total;
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        if (opts.signal?.aborted) return;
        const entry = await writeItem(item, target, opts);
        done.push({ id: item.id, ref: item.ref, stage, ...entry });
        emit({
          type: 'object',
          stage,
          id: item.id,
          action: entry.action,
          done: before + done.length,
          total,
          ...(entry.message ? { message: entry.message } : {}),
        });
      }),
    ),
  );
  return done;
}

/**
 * After the first apply of an object created by hand: kubectl's managers are released (see
 * `ApplyTarget.releaseManagers`; controllers keep theirs). Returns the change set message; a
 * failed release is said there and does not fail the object (it is Groundwork's from now on).
 */
async function adopted(applied: K8sObject, target: ApplyTarget): Promise<string> {
  const manual = [
    ...new Set((applied.metadata.managedFields ?? []).map((e) => e.manager ?? '').filter(isManualManager)),
  ];
  if (manual.length === 0) return 'adopted: Groundwork now owns its fields';
  try {
    await target.releaseManagers(applied, manual);
    return `adopted: Groundwork now owns its fields (released ${manual.join(', ')})`;
  } catch (err) {
    return `adopted, but releasing ${manual.join(', ')} failed (${errorMessage(err)}): fields git drops later stay while they co-own them`;
  }
}

/**
 * Writes one plan item (a server-side apply; for `on-immutable: recreate`, a delete, a wait until
 * it is gone and a create) and says what happened. Never throws: a refused write is `failed`.
 */
async function writeItem(
  item: PlanItem,
  target: ApplyTarget,
  opts: WriteOptions,
): Promise<{
  action: 'created' | 'configured' | 'unchanged' | 'skipped' | 'failed';
  message?: string;
  code?: EntryCode;
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
  const body = applyBody(item.desired!, item.action !== 'create');
  try {
    const applied = await target.apply(body, { force });
    if (item.action === 'create') return { action: 'created' };
    if (item.action === 'adopt') return { action: 'configured', message: await adopted(applied, target) };
    // An update's message says what it does beyond git's change (restores out-of-band edits).
    return { action: 'configured', ...(item.message && !item.reason ? { message: item.message } : {}) };
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
    const hook = failedWebhook(f.message);
    const why = hook ? await target.explainWebhook(hook).catch(() => undefined) : undefined;
    return {
      action: 'failed',
      code: f.code,
      message: why ? `${describeRef(item.ref)}: ${why} (${f.message})` : f.message,
    };
  }
}

/** The webhook a server message says it failed calling (`failed calling webhook "<name>"`), if any. */
function failedWebhook(message: string): string | undefined {
  return /failed calling webhook "([^"]{1,253})"/.exec(message)?.[1];
}
