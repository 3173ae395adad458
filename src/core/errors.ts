/**
 * Base class of every error Groundwork raises on purpose.
 *
 * Each subclass has a stable `code` (part of the CLI's and the agent's output
 * contract), names its `subject` (an object, a file, a construct path) and,
 * where one exists, a `fix` the user can apply.
 *
 * @example
 * throw new GroundworkError({ code: 'DryRunRejected', subject: 'Subscription/gitops/argocd',
 *   message: 'spec.channel: Required value', fix: 'set channel on the PlatformOperator' });
 */
export class GroundworkError extends Error {
  readonly code: string;
  readonly subject: string | undefined;
  readonly fix: string | undefined;

  constructor(opts: { code: string; message: string; subject?: string; fix?: string; cause?: unknown }) {
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

export function errorMessage(err: unknown): string {
  if (err instanceof GroundworkError) return err.toString();
  return err instanceof Error ? err.message : String(err);
}
