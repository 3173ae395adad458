import { keyPath } from '../../core/zod-issues.js';
import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import { GroundworkError } from '../../core/errors.js';

/** One problem found at synth time, anchored to a construct path (and a prop path inside it). */
export interface ValidationIssue {
  /** Construct path, e.g. `platform/operators/gitops`, or a file for overlay values. */
  path: string;
  /** Where inside the construct's props (`approval`, `files[2].mode`); empty for the construct itself. */
  field: string;
  message: string;
  fix?: string;
  severity: 'error' | 'warning';
  /** The overlay being synthesized, when the issue belongs to one (set by `synthesize`). */
  overlay?: string;
  /**
   * Where the offending value came from, when it came from overlay values:
   * `overlays/prod.yaml:12 (operators.kepler.pin)`.
   */
  from?: string;
  /** Where the platform's code recorded it: `platform/main.ts:12` (set by `synthesize`). */
  at?: string;
}

const ISSUES = Symbol.for('groundwork.validation.issues');

/** The stack at which each issue was recorded, for `synthesize` to find the platform's line. */
const STACKS = new WeakMap<ValidationIssue, string>();

/** The stack captured when `issue` was recorded by `Validation`, if it was. */
export function recordedStack(issue: ValidationIssue): string | undefined {
  return STACKS.get(issue);
}

function record(scope: IConstruct, issue: ValidationIssue): void {
  const stack = new Error().stack;
  if (stack) STACKS.set(issue, stack);
  issuesOf(scope).push(issue);
}

type Root = IConstruct & { [ISSUES]?: ValidationIssue[] };

/** The issue list shared by a whole construct tree (kept on its root). */
function issuesOf(scope: IConstruct): ValidationIssue[] {
  const root = scope.node.root as Root;
  root[ISSUES] ??= [];
  return root[ISSUES];
}

/**
 * Records problems without throwing, so that one synth reports all of them at once
 * (like cdk8s validations, but with prop paths and fixes).
 */
export const Validation = {
  error(scope: IConstruct, field: string, message: string, fix?: string): void {
    record(scope, {
      path: scope.node.path,
      field,
      message,
      ...(fix ? { fix } : {}),
      severity: 'error',
    });
  },
  warn(scope: IConstruct, field: string, message: string, fix?: string): void {
    record(scope, {
      path: scope.node.path,
      field,
      message,
      ...(fix ? { fix } : {}),
      severity: 'warning',
    });
  },
  /** Everything recorded so far in the tree of `scope`, in recording order. */
  all(scope: IConstruct): readonly ValidationIssue[] {
    return issuesOf(scope);
  },
};

/**
 * Validates construct props with a zod schema. Returns the parsed value, or undefined after
 * recording one issue per problem (with its prop path) on the construct. Each issue's fix is its
 * own (`params.fix` of a refinement, see `zodIssueWithFix`) or else `fixes[<top-level prop>]`.
 */
export function validateProps<S extends z.ZodType>(
  scope: IConstruct,
  schema: S,
  props: unknown,
  fixes: Record<string, string> = {},
  explain: (issue: z.core.$ZodIssue) => { message: string; fix?: string } | undefined = () => undefined,
): z.infer<S> | undefined {
  const parsed = schema.safeParse(props);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const special = explain(issue);
    const own = (issue as { params?: { fix?: unknown } }).params?.fix;
    const fix = special?.fix ?? (typeof own === 'string' ? own : fixes[String(issue.path[0] ?? '')]);
    Validation.error(scope, formatPath(issue.path), special?.message ?? issue.message, fix);
  }
  return undefined;
}

/** `files[2].mode` from `['files', 2, 'mode']`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return keyPath(path);
}

/** Formats an issue as one line: `path: field: message (fix: ...)`. */
export function formatIssue(issue: ValidationIssue): string {
  const where = issue.field ? `${issue.path}: ${issue.field}` : issue.path;
  const overlay = issue.overlay ? `[overlay ${issue.overlay}] ` : '';
  const from = issue.from ? `\n    value from ${issue.from}` : '';
  const at = issue.at ? `\n    at ${issue.at}` : '';
  return `${issue.severity === 'warning' ? 'warning' : 'error'}: ${overlay}${where}: ${issue.message}${at}${from}${issue.fix ? `\n    fix: ${issue.fix}` : ''}`;
}

/**
 * Synth failed validation: carries every error (and the warnings seen with them).
 * The CLI prints them all and exits 2; nothing is written or applied.
 */
export class SynthValidationError extends GroundworkError {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    super({
      code: 'ValidationFailed',
      message: `${errors.length} validation error${errors.length === 1 ? '' : 's'}:\n${issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`,
    });
    this.issues = issues;
  }

  override toString(): string {
    return this.message;
  }
}
