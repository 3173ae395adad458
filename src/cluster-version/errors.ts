import type { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { failureLocation, jsonFailure } from '../core/parse-failure.js';
import { formatIssues } from '../core/zod-issues.js';

/** A Cincinnati graph, a graph-data file or a ClusterVersion that does not have the expected shape. */
export class InvalidUpdateGraphError extends GroundworkError {
  /** Every problem found, each prefixed with its path in the document (`nodes[3].version: ...`). */
  readonly problems: readonly string[];

  constructor(subject: string, problems: readonly string[], fix?: string) {
    super({
      code: 'InvalidUpdateGraph',
      subject,
      message: `${problems.length} problem(s): ${problems.join('; ')}`,
      fix:
        fix ??
        'pass a Cincinnati graph response ({nodes, edges, conditionalEdges}) as served by the update service',
    });
    this.problems = problems;
  }
}

/** A ClusterVersion or ClusterOperator read from the cluster that lacks the fields the stepper needs. */
export class InvalidClusterStateError extends GroundworkError {
  readonly problems: readonly string[];

  constructor(subject: string, problems: readonly string[]) {
    super({
      code: 'InvalidClusterState',
      subject,
      message: `${problems.length} problem(s): ${problems.join('; ')}`,
      fix: 'pass the object as read from the API server (config.openshift.io/v1)',
    });
    this.problems = problems;
  }
}

/** A channel name that is not `stable|fast|candidate|eus-<major>.<minor>` (or an odd-minor eus channel). */
export class InvalidChannelError extends GroundworkError {
  constructor(channel: string, message: string) {
    super({
      code: 'InvalidChannel',
      subject: `channel ${JSON.stringify(channel)}`,
      message,
      fix: 'use stable-4.N, fast-4.N, candidate-4.N or eus-4.N (even N)',
    });
  }
}

/** Shared with every zod-parsed input; defined once in core. */
export { formatIssues } from '../core/zod-issues.js';

/**
 * Parses the JSON text of an update-graph document (`file`, for messages) with `schema`. Throws
 * `InvalidUpdateGraphError` naming where the JSON breaks (never quoting it), or every schema problem.
 */
export function parseGraphJson<S extends z.ZodType>(content: string, file: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (err) {
    // Where and why only: V8's message quotes the text.
    const failure = jsonFailure(err, content);
    throw new InvalidUpdateGraphError(failureLocation(file, failure), [`not JSON: ${failure.reason}`]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InvalidUpdateGraphError(file, formatIssues(parsed.error.issues));
  return parsed.data;
}
