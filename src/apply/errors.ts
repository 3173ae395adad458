import { isApiErrorLike, type ApiErrorLike } from './api-error-like.js';
import type { PlanItem } from '../plan/types.js';
import { describeRef } from '../core/object-id.js';
import { failureCodeOf, type FailureCode } from '../plan/entry-codes.js';
import { isImmutableStatus, RECREATE_HINT, trimServerMessage } from '../plan/immutable.js';

/** A failed object write, classified: code and a message that says what to do. */
interface WriteFailure {
  code: FailureCode;
  message: string;
}

/**
 * Turns a server error on apply into a stable code and an actionable message:
 * conflicts name the other field managers; immutable fields name the recreate policy.
 */
export function classifyWriteError(err: unknown, item: PlanItem): WriteFailure {
  const subject = describeRef(item.ref);
  if (!isApiErrorLike(err))
    return { code: 'Error', message: `${subject}: ${err instanceof Error ? err.message : String(err)}` };
  if (err.status === 409 && err.reason === 'Conflict') {
    const fields = err.causes.map(
      (c) =>
        `${c.field ?? '?'} (${/conflict with "([^"]+)"/.exec(c.message ?? '')?.[1] ?? 'another manager'})`,
    );
    return {
      code: 'Conflict',
      message: `${subject}: field manager conflict on ${fields.join(', ') || 'some fields'}; not forced (annotate groundwork.io/conflicts: force, or pass --force-conflicts, to take ownership)`,
    };
  }
  if (isImmutable(err)) {
    return {
      code: 'Immutable',
      message: `${subject}: a changed field is immutable; ${RECREATE_HINT} (server: ${trimServerMessage(err.bodyMessage)})`,
    };
  }
  return { code: failureCodeOf(err.reason), message: `${subject}: ${err.reason}: ${err.bodyMessage}` };
}

/** The server refused a change to an immutable field. */
export function isImmutable(err: unknown): boolean {
  return isApiErrorLike(err) && isImmutableStatus(err.status, err.bodyMessage);
}

export type { ApiErrorLike };
