import { GroundworkError, type ErrorCode } from '../../core/errors.js';
import type { ValidationIssue } from '../../render/synth/validation.js';

/** Why a revision did not synthesize, as plain data: the error code, and every validation issue. */
export interface SynthFailure {
  /** `ValidationFailed`, `CompileFailed`, `BuildFailed`, `UnknownOverlay`, `SynthTimeout`, ... */
  code: ErrorCode;
  message: string;
  fix?: string;
  /** For `ValidationFailed`: every issue (errors and the warnings seen with them); else empty. */
  issues: ValidationIssue[];
}

interface SynthFailureOptions {
  /**
   * Directories to remove from every message and path (with the separator after them), so a
   * preview of a temporary export names `platform/main.ts`, not `/tmp/groundwork-preview-x/head/platform/main.ts`.
   * @default []
   */
  hidePaths?: readonly string[];
}

/**
 * Turns what synth threw into a `SynthFailure`: `SynthValidationError` keeps its issues, any
 * `GroundworkError` its code and fix, anything else becomes `SynthCrashed` with its message.
 */
export function synthFailureOf(err: unknown, opts: SynthFailureOptions = {}): SynthFailure {
  const hide = (s: string): string => hidePaths(s, opts.hidePaths ?? []);
  const issues = (err as { issues?: unknown }).issues;
  if (err instanceof GroundworkError) {
    return {
      code: err.code,
      message: hide(Array.isArray(issues) ? issueCountMessage(issues as ValidationIssue[]) : err.message),
      ...(err.fix ? { fix: hide(err.fix) } : {}),
      issues: Array.isArray(issues)
        ? (issues as ValidationIssue[]).map((i) => ({
            ...i,
            path: hide(i.path),
            message: hide(i.message),
            ...(i.fix ? { fix: hide(i.fix) } : {}),
          }))
        : [],
    };
  }
  return {
    code: 'SynthCrashed',
    message: hide(err instanceof Error ? err.message : String(err)),
    issues: [],
  };
}

function issueCountMessage(issues: readonly ValidationIssue[]): string {
  const errors = issues.filter((i) => i.severity === 'error').length;
  return `${errors} validation error${errors === 1 ? '' : 's'}`;
}

function hidePaths(text: string, dirs: readonly string[]): string {
  let out = text;
  // Longest first, so /tmp/x/head is removed before /tmp/x.
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    if (!dir) continue;
    const trimmed = dir.replace(/[/\\]+$/, '');
    out = out.split(`${trimmed}/`).join('').split(`${trimmed}\\`).join('').split(trimmed).join('.');
  }
  return out;
}
