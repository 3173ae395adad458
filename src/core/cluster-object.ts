import { z } from 'zod';
import { GroundworkError } from './errors.js';
import { isPlainObject, type K8sMetadata, type K8sObject } from './object.js';
import { formatIssues, summarizeProblems } from './zod-issues.js';

/**
 * The building blocks of the schemas that read objects from the cluster at the edge (the hooks,
 * the health checks, the client). They check what Groundwork reads and keep every other field
 * (`looseObject`): controllers add fields in new releases, and an object is written back whole.
 *
 * `ObjectMeta` beyond these fields (`managedFields`, `ownerReferences`, ...) is not checked: the API
 * server validates it for every kind, so it is trusted.
 */

/** A condition as Kubernetes and OpenShift controllers write it. */
const conditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
  observedGeneration: z.number().optional(),
});

/** `status.conditions`; may be absent or `null` (a Go nil slice). */
export const conditionsSchema = z.array(conditionSchema).nullish();

/** The part of `metadata` that Groundwork reads from every object. */
export const metadataSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  generation: z.number().optional(),
  resourceVersion: z.string().optional(),
});

/**
 * The base of a kind's schema (`objectSchema.extend({ spec, status })`). Parsing copies the object
 * (known keys first): use it where an object is read, not where it is stored or written back.
 */
export const objectSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: metadataSchema,
});

/** A list item: the API server leaves out `apiVersion` and `kind` (the list's kind says them). */
export interface ListItem {
  apiVersion?: string;
  kind?: string;
  metadata: K8sMetadata;
  [field: string]: unknown;
}

/** True for an object with a non-empty `metadata.name` (and string `metadata.namespace` if any). */
export function isListItem(value: unknown): value is ListItem {
  if (!isPlainObject(value) || !isPlainObject(value.metadata)) return false;
  const { name, namespace } = value.metadata;
  return (
    typeof name === 'string' && name !== '' && (namespace === undefined || typeof namespace === 'string')
  );
}

/** True for a whole `K8sObject`: a list item with string `apiVersion` and `kind`. */
export function isK8sObject(value: unknown): value is K8sObject {
  return isListItem(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
}

/**
 * An object as the client receives it (a GET, a create, an apply). Checked by a guard, not copied:
 * the value is the very object the server sent, fields and key order intact, at no cost per field.
 */
export const k8sObjectSchema = z.custom<K8sObject>(isK8sObject, {
  message: 'expected a Kubernetes object (string apiVersion, kind and metadata.name)',
});

/** A list item as the client receives it, checked like `k8sObjectSchema` without apiVersion and kind. */
export const listItemSchema = z.custom<ListItem>(isListItem, {
  message: 'expected a Kubernetes object (string metadata.name)',
});

/** A live object read from the cluster lacks a field Groundwork needs, or holds one of another type. */
export class ClusterObjectInvalidError extends GroundworkError {
  /** Every problem found, each `path: message` (`status.machineCount: Invalid input: ...`). */
  readonly problems: readonly string[];

  constructor(subject: string, problems: readonly string[]) {
    super({
      code: 'ClusterObjectInvalid',
      subject,
      message: `unexpected shape: ${summarizeProblems(problems)}`,
      fix: 'check the controller or the person that wrote these fields, and that the CRD is the version Groundwork expects',
    });
    this.problems = problems;
  }
}

/**
 * Validates one object read from the cluster with `schema` and returns the parsed value (unknown
 * fields kept where the schema is loose).
 *
 * @param kind names the object in the error: `MachineConfigPool/worker`, `Subscription/ns/name`.
 * @throws ClusterObjectInvalidError listing every problem with its field path. Never echoes values.
 * @example
 * const pool = parseClusterObject(machineConfigPoolSchema, live, 'MachineConfigPool');
 */
export function parseClusterObject<S extends z.ZodType>(schema: S, obj: unknown, kind: string): z.output<S> {
  const result = schema.safeParse(obj);
  if (result.success) return result.data;
  throw new ClusterObjectInvalidError(subjectOf(kind, obj), formatIssues(result.error.issues));
}

/**
 * `Kind/name` or `Kind/namespace/name` from the object's own metadata, as far as it can be read;
 * `?` stands for a name that is missing or not a plausible object name (never echoed).
 */
export function subjectOf(kind: string, obj: unknown): string {
  const meta = isPlainObject(obj) && isPlainObject(obj.metadata) ? obj.metadata : {};
  const part = (v: unknown) => (typeof v === 'string' && /^[a-zA-Z0-9._:-]{1,253}$/.test(v) ? v : '?');
  const ns = meta.namespace === undefined || meta.namespace === '' ? '' : `${part(meta.namespace)}/`;
  return `${kind}/${ns}${part(meta.name)}`;
}
