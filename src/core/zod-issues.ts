import type { z } from 'zod';

/**
 * Formats zod issues as `path: message`, the path written as `a.b[2].c` (after `prefix`). Zod's
 * messages name the expected type or values, never the value received, so no input is echoed.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): string[] {
  return issues.map((issue) => `${formatPath(prefix, issue.path)}: ${issue.message}`);
}

/** `files[2].mode` from `['files', 2, 'mode']`; empty for an empty path. */
export function keyPath(path: readonly PropertyKey[]): string {
  const out = formatPath('', path);
  return out === '(root)' ? '' : out;
}

/** `prefix` followed by `path` as `a.b[2].c`; `(root)` when both are empty. */
function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * At most `max` problems, then how many more: one malformed field repeated over a list of
 * thousands of objects makes one readable message, not a megabyte.
 */
export function summarizeProblems(problems: readonly string[], max = 5): string {
  const shown = problems.slice(0, max).join('; ');
  return problems.length > max ? `${shown} (+${problems.length - max} more)` : shown;
}
