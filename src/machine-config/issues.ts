import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import { formatPath, Validation } from '../synth/validation.js';
import type { Problem } from './rules.js';

/** A zod refinement that reports `check`'s problem, carrying its fix in the issue's `params`. */
export function refineWith<T>(check: (value: T) => Problem | undefined) {
  return (value: T, ctx: z.RefinementCtx): void => {
    const p = check(value);
    if (p) addProblem(ctx, p);
  };
}

/** Adds a problem as a custom zod issue (at `path` below the current value). */
export function addProblem(ctx: z.RefinementCtx, p: Problem, path: PropertyKey[] = []): void {
  ctx.addIssue({ code: 'custom', message: p.message, path, ...(p.fix ? { params: { fix: p.fix } } : {}) });
}

/**
 * Parses props like `validateProps`, but takes each issue's fix from the issue itself (`params.fix`
 * of refinements) before falling back to `fixes[<top-level prop>]`, so that every rule can say how
 * to repair its own problem. Records every issue; returns the parsed value only when there is none.
 */
export function parseProps<S extends z.ZodType>(
  scope: IConstruct,
  schema: S,
  props: unknown,
  fixes: Record<string, string> = {},
): z.infer<S> | undefined {
  const parsed = schema.safeParse(props);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const { message, fix } = describe(issue, fixes);
    Validation.error(scope, formatPath(issue.path), message, fix);
  }
  return undefined;
}

function describe(issue: z.core.$ZodIssue, fixes: Record<string, string>): Problem {
  const own = (issue as { params?: { fix?: unknown } }).params?.fix;
  if (typeof own === 'string') return { message: issue.message, fix: own };
  if (issue.code === 'unrecognized_keys' && issue.keys.includes('source')) {
    return {
      message:
        'a remote "source" is not supported: the MCO writes files only from data: URLs, which Groundwork builds from contents',
      fix: 'inline the file: contents as text, { base64 } or bytes',
    };
  }
  const fix = fixes[String(issue.path[0] ?? '')];
  return fix ? { message: issue.message, fix } : { message: issue.message };
}
