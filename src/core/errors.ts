import type { ErrorCode } from './error-codes.js';

export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes.js';

/**
 * Base class of every error Groundwork raises on purpose.
 *
 * Each subclass has a stable `code` from `ERROR_CODES` (part of the CLI's and the agent's output
 * contract, listed with its fix in docs/errors.md), names its `subject` (an object, a file, a construct path) and,
 * where one exists, a `fix` the user can apply.
 *
 * @example
 * throw new GroundworkError({ code: 'UnknownOverlay', subject: 'overlay prod',
 *   message: 'no prod.yaml in overlays', fix: 'use one of: dev, staging' });
 */
export class GroundworkError extends Error {
  readonly code: ErrorCode;
  readonly subject: string | undefined;
  readonly fix: string | undefined;

  constructor(opts: { code: ErrorCode; message: string; subject?: string; fix?: string; cause?: unknown }) {
    super(opts.subject ? `${opts.subject}: ${opts.message}` : opts.message, { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.subject = opts.subject;
    this.fix = opts.fix;
  }

  /** One line for logs, with the fix appended when known. */
  override toString(): string {
    return this.fix ? `${this.message} (fix: ${this.fix})` : this.message;
  }
}

/**
 * Whether `err` is a `GroundworkError` with this `code`. Compare codes with this, never with
 * `(err as { code?: string }).code`: Node system errors and isomorphic-git errors have a `code` too.
 *
 * @example
 * if (hasCode(err, 'UnknownKind')) return undefined;
 */
export function hasCode<C extends ErrorCode>(
  err: unknown,
  code: C,
): err is GroundworkError & { readonly code: C } {
  return err instanceof GroundworkError && err.code === code;
}

export function errorMessage(err: unknown): string {
  if (err instanceof GroundworkError) return err.toString();
  return err instanceof Error ? err.message : String(err);
}
