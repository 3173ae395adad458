import type { IConstruct } from 'constructs';
import type { z } from 'zod';
import { validateProps } from '../render/synth/validation.js';
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
 * `validateProps` with the machine-config explanation of a rejected remote `source`; each rule's
 * own fix (`params.fix`) is taken by `validateProps` itself.
 */
export function parseProps<S extends z.ZodType>(
  scope: IConstruct,
  schema: S,
  props: unknown,
  fixes: Record<string, string> = {},
): z.infer<S> | undefined {
  return validateProps(scope, schema, props, fixes, explainSource);
}

function explainSource(issue: z.core.$ZodIssue): Problem | undefined {
  if (issue.code === 'unrecognized_keys' && issue.keys.includes('source')) {
    return {
      message:
        'a remote "source" is not supported: the MCO writes files only from data: URLs, which Groundwork builds from contents',
      fix: 'inline the file: contents as text, { base64 } or bytes',
    };
  }
  return undefined;
}
