// The JSON types of the most common integer and boolean fields of built-in workload kinds, checked
// on a rendered chart's or kustomization's objects: pure.
import { isPlainObject, splitApiVersion, type K8sObject } from '../../core/object.js';

/** A rendered object's field whose value the apiserver would refuse to decode. */
export interface RenderedTypeProblem {
  /** JSON pointer of the field, e.g. `/spec/replicas`. */
  field: string;
  /** The value found (for `valuePaths`). */
  value: unknown;
  message: string;
  fix: string;
}

type Want = 'integer' | 'boolean';

const CONTAINER: Record<string, Want> = {
  'ports/[]/containerPort': 'integer',
  'ports/[]/hostPort': 'integer',
  stdin: 'boolean',
  tty: 'boolean',
  'securityContext/runAsUser': 'integer',
  'securityContext/runAsGroup': 'integer',
  'securityContext/runAsNonRoot': 'boolean',
  'securityContext/privileged': 'boolean',
  'securityContext/readOnlyRootFilesystem': 'boolean',
  'securityContext/allowPrivilegeEscalation': 'boolean',
  ...Object.fromEntries(
    ['livenessProbe', 'readinessProbe', 'startupProbe'].flatMap((probe) =>
      ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'failureThreshold', 'successThreshold'].map(
        (f) => [`${probe}/${f}`, 'integer' as const],
      ),
    ),
  ),
};

const POD_SPEC: Record<string, Want> = {
  terminationGracePeriodSeconds: 'integer',
  activeDeadlineSeconds: 'integer',
  hostNetwork: 'boolean',
  hostPID: 'boolean',
  automountServiceAccountToken: 'boolean',
  'securityContext/runAsUser': 'integer',
  'securityContext/runAsGroup': 'integer',
  'securityContext/fsGroup': 'integer',
  'securityContext/runAsNonRoot': 'boolean',
  'volumes/[]/secret/defaultMode': 'integer',
  'volumes/[]/configMap/defaultMode': 'integer',
  ...Object.fromEntries(
    ['containers', 'initContainers'].flatMap((list) =>
      Object.entries(CONTAINER).map(([path, want]) => [`${list}/[]/${path}`, want]),
    ),
  ),
};

const under = (prefix: string, fields: Record<string, Want>) =>
  Object.fromEntries(Object.entries(fields).map(([path, want]) => [`${prefix}/${path}`, want]));

const JOB_SPEC: Record<string, Want> = {
  backoffLimit: 'integer',
  completions: 'integer',
  parallelism: 'integer',
  activeDeadlineSeconds: 'integer',
  ttlSecondsAfterFinished: 'integer',
  suspend: 'boolean',
  ...under('template/spec', POD_SPEC),
};

const REPLICATED: Record<string, Want> = {
  'spec/replicas': 'integer',
  'spec/revisionHistoryLimit': 'integer',
  'spec/minReadySeconds': 'integer',
  ...under('spec/template/spec', POD_SPEC),
};

/** `group/kind` (core: `/kind`) to the typed fields checked, as pointers with `[]` for each item. */
const FIELDS: ReadonlyMap<string, Record<string, Want>> = new Map([
  ['apps/Deployment', { ...REPLICATED, 'spec/progressDeadlineSeconds': 'integer', 'spec/paused': 'boolean' }],
  ['apps/StatefulSet', REPLICATED],
  ['apps/ReplicaSet', REPLICATED],
  ['apps/DaemonSet', REPLICATED],
  ['batch/Job', under('spec', JOB_SPEC)],
  [
    'batch/CronJob',
    {
      'spec/suspend': 'boolean',
      'spec/successfulJobsHistoryLimit': 'integer',
      'spec/failedJobsHistoryLimit': 'integer',
      ...under('spec/jobTemplate/spec', JOB_SPEC),
    },
  ],
  ['/Pod', under('spec', POD_SPEC)],
  ['/Service', { 'spec/ports/[]/port': 'integer', 'spec/ports/[]/nodePort': 'integer' }],
]);

/**
 * The fields of a rendered object of a built-in workload kind (Deployment, StatefulSet, ReplicaSet,
 * DaemonSet, Job, CronJob, Pod, Service) whose value is not of the JSON type the apiserver decodes
 * (`replicas: "3"`, a quoted `containerPort`, `runAsNonRoot: "true"`): such an object passes a
 * chart without a values schema and fails only at apply. Replicas, ports, probes' timings,
 * security context ids and flags, Job limits and volume modes are checked, not the whole OpenAPI
 * schema; `null` is left to the apiserver (it means unset). Other kinds: none. Pure.
 */
export function renderedTypeProblems(object: K8sObject): RenderedTypeProblem[] {
  const fields = FIELDS.get(`${splitApiVersion(object.apiVersion).group}/${object.kind}`);
  if (!fields) return [];
  const problems: RenderedTypeProblem[] = [];
  for (const [path, want] of Object.entries(fields))
    for (const { pointer, value } of valuesAt(object, path.split('/'), '')) {
      if (value === undefined || value === null) continue;
      const ok = want === 'integer' ? Number.isInteger(value) : typeof value === 'boolean';
      if (ok) continue;
      problems.push({
        field: pointer,
        value,
        message: `${object.kind} ${object.metadata.name}: ${pointer} is ${describe(value)}, the apiserver wants ${want === 'integer' ? 'an integer' : 'a boolean'}`,
        fix:
          want === 'integer'
            ? 'give the chart value as a number (3, not "3"), or convert it in the template ({{ int .Values.x }}); a quoted number stays a string'
            : 'give the chart value as true or false, not a string, or drop the quote in the template',
      });
    }
  return problems;
}

/** The values at `segments` under `at` (`[]`: each item of a list), with their JSON pointers. */
function valuesAt(
  at: unknown,
  segments: readonly string[],
  pointer: string,
): { pointer: string; value: unknown }[] {
  if (segments.length === 0) return [{ pointer, value: at }];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '[]')
    return Array.isArray(at) ? at.flatMap((item, i) => valuesAt(item, rest, `${pointer}/${i}`)) : [];
  return isPlainObject(at) && head in at ? valuesAt(at[head], rest, `${pointer}/${head}`) : [];
}

/** A value as the message shows it: its JSON type and, cut at 40 characters, the value. */
function describe(value: unknown): string {
  const type = Array.isArray(value) ? 'a list' : isPlainObject(value) ? 'an object' : `the ${typeof value}`;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return type;
  const shown = JSON.stringify(value);
  return `${type} ${shown.length > 40 ? `${shown.slice(0, 37)}..."` : shown}`;
}

/**
 * The dotted paths of `values` (a construct's chart values) whose scalar leaf equals `value`: the
 * values that may have set a rendered field, `[]` when none does. Lists as `a[0].b`. Pure; bounded
 * by the values' size (they are a render request's JSON).
 */
export function valuePaths(values: unknown, value: unknown, at = ''): string[] {
  if (Array.isArray(values)) return values.flatMap((v, i) => valuePaths(v, value, `${at}[${i}]`));
  if (isPlainObject(values))
    return Object.entries(values).flatMap(([k, v]) => valuePaths(v, value, at ? `${at}.${k}` : k));
  return values === value && at !== '' ? [at] : [];
}
