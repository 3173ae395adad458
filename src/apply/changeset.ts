import { GroundworkError, hasCode } from '../core/errors.js';
import { describeRef, type ObjectId, type ObjectRef } from '../core/object-id.js';
import type { StageName } from '../core/stages.js';
import { PRUNE_REFUSAL_CODES, type EntryCode } from '../plan/entry-codes.js';

/**
 * What happened to one object. Closed vocabulary, as in flux's ssa change sets:
 * created, configured (updated), unchanged, deleted (pruned), skipped, failed.
 */
export type ChangeAction = 'created' | 'configured' | 'unchanged' | 'deleted' | 'skipped' | 'failed';

export const CHANGE_ACTIONS: readonly ChangeAction[] = [
  'failed',
  'created',
  'configured',
  'deleted',
  'skipped',
  'unchanged',
];

/** Skip codes of a refused prune (see `Plan.pruneRefusal`). */
const PRUNE_REFUSALS: ReadonlySet<EntryCode | undefined> = new Set<EntryCode>(PRUNE_REFUSAL_CODES);

export interface ChangeSetEntry {
  id: ObjectId;
  ref: ObjectRef;
  stage: StageName;
  action: ChangeAction;
  message?: string;
  /**
   * Why it was skipped or failed, from the closed list `EntryCode` (docs/agent-status.md
   * "Per-object codes"): `Conflict`, `Invalid`, `Immutable`, `CrdInUse`, `TooManyPrunes`, ...
   */
  code?: EntryCode;
}

/** A stage wait that ended without reaching its goal (pending, not failed), e.g. a pool outside its window. */
export interface PendingStage {
  stage: StageName;
  message: string;
}

/** What a change set is built from; every field defaults to empty. */
export interface ChangeSetInit {
  entries?: readonly ChangeSetEntry[];
  pending?: readonly PendingStage[];
  /** The error that stopped the apply. @default undefined (it ran to the end) */
  error?: Error;
}

/**
 * The result of an apply: one entry per object acted on, plus the error that stopped it, if any.
 * On failure the change set is partial (what was done before the failing stage) and `error` is set.
 * A value: built once from what the apply did (`applyPlan` returns it), never changed afterwards.
 */
export class ChangeSet {
  readonly entries: readonly ChangeSetEntry[];
  readonly error: Error | undefined;
  readonly pending: readonly PendingStage[];

  constructor(init: ChangeSetInit = {}) {
    this.entries = [...(init.entries ?? [])];
    this.pending = [...(init.pending ?? [])];
    this.error = init.error;
  }

  get counts(): Record<ChangeAction, number> {
    const counts = Object.fromEntries(CHANGE_ACTIONS.map((a) => [a, 0])) as Record<ChangeAction, number>;
    for (const e of this.entries) counts[e.action]++;
    return counts;
  }

  /** Ids that now exist in the cluster because of this apply (created, configured or unchanged). */
  get applied(): ObjectId[] {
    return this.entries
      .filter((e) => e.action === 'created' || e.action === 'configured' || e.action === 'unchanged')
      .map((e) => e.id);
  }

  get failed(): ChangeSetEntry[] {
    return this.entries.filter((e) => e.action === 'failed');
  }

  /**
   * Prune candidates kept because deleting them would delete what stays (`CrdInUse`,
   * `NamespaceInUse`): the apply says each, and the CLI exits 3 as for a refused prune.
   */
  get pruneBlocked(): ChangeSetEntry[] {
    return this.entries.filter(
      (e) => e.action === 'skipped' && (e.code === 'CrdInUse' || e.code === 'NamespaceInUse'),
    );
  }

  /** The prune guard's refusal, when pruning was refused (every prune candidate is then `skipped`). */
  get pruneRefused(): { code: EntryCode; message: string; count: number } | undefined {
    const refused = this.entries.filter((e) => e.action === 'skipped' && PRUNE_REFUSALS.has(e.code));
    const first = refused[0];
    return first ? { code: first.code!, message: first.message ?? '', count: refused.length } : undefined;
  }

  toString(): string {
    const c = this.counts;
    const refused = this.pruneRefused;
    const lines = this.entries
      .filter((e) => e.action !== 'unchanged' && !(refused && PRUNE_REFUSALS.has(e.code)))
      .map(
        (e) =>
          `  ${e.action.padEnd(10)} ${describeRef(e.ref)}${e.action === 'skipped' && e.code ? ` (${e.code})` : ''}${e.message ? `: ${withoutSubject(e)}` : ''}`,
      );
    // One line for a refused prune, however many objects it kept.
    if (refused)
      lines.push(`  prune refused (${refused.code}): ${refused.message}; ${refused.count} object(s) kept`);
    lines.push(
      `${c.created} created, ${c.configured} configured, ${c.deleted} deleted, ${c.skipped} skipped, ${c.failed} failed, ${c.unchanged} unchanged`,
    );
    for (const p of this.pending) lines.push(`  pending (${p.stage}): ${p.message}`);
    if (this.error && hasCode(this.error, 'ConflictsRemain')) {
      // The apply ran to the end: the conflicts it left, each on its line, are the last thing said.
      lines.push('conflicts remain (every other object was applied; --force-conflicts takes these fields):');
      for (const e of this.failed.filter((f) => f.code === 'Conflict'))
        lines.push(`  ${describeRef(e.ref)}: ${withoutSubject(e)}`);
    } else if (this.error) lines.push(`stopped: ${stoppedLine(this.error, this.failed.length)}`);
    return lines.join('\n');
  }

  toJSON(): object {
    return {
      apiVersion: 'groundwork.io/v1',
      kind: 'ChangeSet',
      counts: this.counts,
      entries: this.entries,
      pending: this.pending,
      ...(this.error
        ? {
            error: {
              message: this.error.message,
              // Only Groundwork's closed codes: a Node or git error's `code` is another vocabulary.
              code: this.error instanceof GroundworkError ? this.error.code : undefined,
            },
          }
        : {}),
    };
  }
}

/** An entry's message without the object name the line already starts with. */
function withoutSubject(e: ChangeSetEntry): string {
  const prefix = `${describeRef(e.ref)}: `;
  return e.message?.startsWith(prefix) ? e.message.slice(prefix.length) : (e.message ?? '');
}

/** Why the apply stopped; failed objects are listed above it, so a failed stage names only the count. */
function stoppedLine(error: Error, failed: number): string {
  if (hasCode(error, 'StageFailed')) return `${error.subject}: ${failed} object(s) failed (above)`;
  // A failed hook's fix says where its logs are and how it runs again.
  if (hasCode(error, 'HookFailed')) return error.toString();
  return error.message;
}
