import { z } from 'zod';
import { GroundworkError } from '../core/errors.js';
import { formatIssues, summarizeProblems } from '../core/zod-issues.js';
import type { StatusBody } from './api-error.js';

/**
 * The API server (or something in front of it) answered a request with a body that is not JSON, or
 * not the shape the caller reads. Names the request and the fields, never the body's content.
 */
export class ClusterResponseInvalidError extends GroundworkError {
  /** Every problem found, each `path: message` (`items[3]: expected a Kubernetes object ...`). */
  readonly problems: readonly string[];

  constructor(subject: string, problems: readonly string[]) {
    super({
      code: 'ClusterResponseInvalid',
      subject,
      message: `unexpected response: ${summarizeProblems(problems)}`,
      fix: 'check that the server is a Kubernetes API server (1.27+, OpenShift 4.14+) and that no proxy rewrites its answers',
    });
    this.problems = problems;
  }
}

/**
 * The JSON body `text` (`undefined` when empty), validated by `schema` when one is given.
 * @param subject names the request in errors: `GET /api/v1/namespaces`.
 * @throws ClusterResponseInvalidError when the body is not JSON or does not match `schema`.
 */
export function parseBody<S extends z.ZodType>(text: string, schema: S, subject: string): z.output<S>;
export function parseBody(text: string, schema: z.ZodType | undefined, subject: string): unknown;
export function parseBody(text: string, schema: z.ZodType | undefined, subject: string): unknown {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ClusterResponseInvalidError(subject, ['(root): not JSON']);
  }
  if (!schema) return body;
  const result = schema.safeParse(body);
  if (!result.success) throw new ClusterResponseInvalidError(subject, formatIssues(result.error.issues));
  return result.data;
}

/** A `metav1.Status` body, every field optional (a proxy's error page is not one). */
export const statusBodySchema: z.ZodType<StatusBody> = z.looseObject({
  kind: z.string().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  code: z.number().optional(),
  details: z
    .looseObject({
      name: z.string().optional(),
      group: z.string().optional(),
      kind: z.string().optional(),
      causes: z
        .array(
          z.looseObject({
            reason: z.string().optional(),
            message: z.string().optional(),
            field: z.string().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

/** The Status in an error body, or undefined when the body is not JSON or not a Status. */
export function parseStatus(text: string): StatusBody | undefined {
  try {
    const result = statusBodySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** The body of `GET /version` (`version.Info`), as far as Groundwork reads it. */
export const versionInfoSchema = z.looseObject({ gitVersion: z.string() });

/** A Secret (or ConfigMap) read for its `data`: string values (base64 in a Secret), maybe none. */
export const dataObjectSchema = z.looseObject({ data: z.record(z.string(), z.string()).nullish() });
