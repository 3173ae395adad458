// A `helm template` failure as a validation issue: helm's message, with the values it points at
// and where each came from (the construct's values, a values file, the chart's values.yaml, and
// probably which overlay key), and no value of the user's printed.
import { loadManifestYaml } from '../../core/manifest-yaml.js';
import { isPlainObject } from '../../core/object.js';
import type { ValueOrigin } from '../synth/overlays.js';
import type { ChartFiles } from './chart-files.js';
import { chartValueSource, type ValueLayer, type ValueSource } from './chart-value-source.js';
import { readHelmFailure } from './helm-args.js';
import { helmValueRefs, type ValueRef } from './helm-value-refs.js';
import { overlayCandidates } from './overlay-candidates.js';
import { templatesCalling } from './templates-calling.js';

export interface HelmFailureInput {
  /** helm's stderr, as it wrote it. */
  stderr: string;
  /** The chart's files (`chartFilesOf`): subchart names, template lines, default values. */
  files: ChartFiles['files'];
  /** The construct's values and its values files (parsed), highest precedence first. */
  given: readonly ValueLayer[];
  /** The overlay's scalar values and where each was set; empty when unknown. */
  origins: readonly ValueOrigin[];
}

export interface ExplainedFailure {
  problem: string;
  fix: string;
  /** `values.<path>` or `valuesFiles[i]` when the value helm points at was given there, else `chart`. */
  field: string;
  /** The overlay keys the value probably came from (`overlays/prod.yaml:3 (ingress.replicas)`). */
  from?: string;
}

/** Values named for one failure. */
const MAX_NAMED = 3;

/**
 * Explains a helm failure (pure): helm's first error line and its details (template file and
 * line), then each value it points at (`helmValueRefs`, at most 3) with its type and where it
 * came from (`chartValueSource` over `given` and the chart's values.yaml files), and for a value
 * of the construct's `values`, the overlay keys holding the same value ("probably": what platform
 * code did with its values cannot be known). Every string of at least 4 characters that the
 * construct's values or values files hold is replaced in helm's message by `<value of path>`, so
 * a password a schema pattern or a `fail` quotes is not printed; shorter strings and numbers are
 * left (a 3-character secret is none, and `got 0, want 1` says what is wrong).
 */
export function explainHelmFailure(input: HelmFailureInput): ExplainedFailure {
  const layers = [...input.given, ...chartDefaults(input.files)];
  const refs = helmValueRefs(input.stderr, input.files).slice(0, MAX_NAMED);
  const failure = readHelmFailure(redact(input.stderr, input.given));
  const where = failure.template ? ` at ${failure.template}${failure.line ? `:${failure.line}` : ''}` : '';
  const described = refs.map((ref) => ({ ref, source: chartValueSource(ref.path, layers) }));
  // The value to fix: of a failing line's values, one that is not set (what `required` wants),
  // else the first one given.
  const first =
    described.find((d) => (d.ref.how === 'read' || d.ref.how === 'required') && unset(d)) ??
    described.find((d) => d.source.set) ??
    described[0];
  const candidates =
    first?.source.set && first.source.layer.kind === 'values'
      ? overlayCandidates(first.source.value, first.ref.path, input.origins)
      : [];
  const values = described.map((d) => describe(d.ref, d.source)).join('; ');
  // A chart that fails because lookup found nothing (a required Secret, a CRD check) says so.
  const template = failure.template?.split('/').slice(1).join('/');
  const lookup =
    template && templatesCalling(new Map([[template, input.files.get(template) ?? '']]), 'lookup').length > 0
      ? `; ${failure.template} calls lookup, which finds nothing at synth (helm template has no cluster): set the values that let the chart do without it`
      : '';
  // A `required` inside a named template: helm named the line that includes it; say where it is.
  const via = refs.find((r) => r.via)?.via;
  const inside = via
    ? `; it is required in ${shown(via.template)} (${shown(via.file)}:${via.line}), which that line includes`
    : '';
  const condition =
    first && unset(first) ? described.find((d) => d.ref.how === 'condition' && d.source.set) : undefined;
  const orCondition =
    condition && condition.source.set && condition.source.layer.kind !== 'chart'
      ? `, or change ${fieldOf(condition.ref, condition.source.layer)} (the condition it is required under)`
      : '';
  return {
    problem: `helm template failed${where}: ${failure.message}${values ? ` (${values}${inside})` : ''}`,
    fix: `${fixFor(first, candidates, failure.message)}${orCondition}${lookup}`,
    field: first?.source.set && !unset(first) ? fieldOf(first.ref, first.source.layer) : 'chart',
    ...(candidates.length > 0
      ? {
          from: `${candidates.map((o) => `${o.at} (${o.key})`).join(', ')}, probably: it holds the value of values.${valuePath(first!.ref.path)}`,
        }
      : {}),
  };
}

/**
 * Whether a value is missing for what reads it: not set anywhere, or (for a `required`) null or the
 * empty string, which `required` refuses too.
 */
function unset(d: { ref: ValueRef; source: ValueSource }): boolean {
  if (!d.source.set) return true;
  return d.ref.how === 'required' && (d.source.value === null || d.source.value === '');
}

/** `replicaCount is a string, from the construct's values` / `db.host is not set: ...`. */
function describe(ref: ValueRef, source: ValueSource): string {
  const name = valuePath(ref.path);
  if (source.set) {
    const verb =
      ref.how === 'read'
        ? `the failing line reads ${name}: `
        : ref.how === 'condition'
          ? `the condition around it reads ${name}: `
          : `${name} is `;
    return `${verb}${source.type}, from ${layerName(source.layer, ref.path)}`;
  }
  if (source.deepest)
    return `${name} is not set (${valuePath(source.deepest.path)} is ${source.deepest.type}, from ${layerName(source.deepest.layer, source.deepest.path)})`;
  return `${name} is not set in values, valuesFiles or the chart's values.yaml`;
}

function layerName(layer: ValueLayer, path: readonly string[]): string {
  if (layer.kind === 'values') return `the construct's values (values.${valuePath(path)})`;
  if (layer.kind === 'valuesFile') return `valuesFiles[${layer.index}] ${layer.file}`;
  return `the chart's default in ${layer.file}`;
}

function fieldOf(ref: ValueRef, layer: ValueLayer): string {
  if (layer.kind === 'values') return `values.${valuePath(ref.path)}`;
  if (layer.kind === 'valuesFile') return `valuesFiles[${layer.index}]`;
  return 'chart';
}

function fixFor(
  first: { ref: ValueRef; source: ValueSource } | undefined,
  candidates: readonly ValueOrigin[],
  message: string,
): string {
  const generic = helmFix(message);
  if (!first) return generic;
  const name = valuePath(first.ref.path);
  if (!first.source.set || unset(first)) return `set ${name} in the construct's values or a values file`;
  const layer = first.source.layer;
  const place =
    layer.kind === 'values'
      ? candidates.length > 0
        ? `${candidates[0]!.at.replace(/:\d+$/, '')} ${candidates[0]!.key} (or the code that sets values.${name})`
        : `values.${name} in the platform code`
      : layer.kind === 'valuesFile'
        ? `${name} in ${layer.file}`
        : `${name} in values (it overrides the chart's default)`;
  return `change ${place}; ${generic}`;
}

/** A fix for helm's common failures. */
export function helmFix(message: string): string {
  if (/missing in charts\/ directory|found in Chart\.yaml, but missing/.test(message))
    return "the chart's dependencies are not in its charts/ directory: run helm dependency build in the chart and commit charts/ (synth fetches nothing)";
  if (/values don't meet the specifications of the schema/.test(message))
    return "set values that meet the chart's values.schema.json (the fields named above)";
  if (/nil pointer evaluating|map has no entry|index of nil/.test(message))
    return 'a value the template reads is not set: set it in values or valuesFiles';
  return 'fix the values or the chart template named above (helm template shows the same error)';
}

/** The chart's own values.yaml and each subchart's, lowest precedence (subcharts last). */
function chartDefaults(files: ChartFiles['files']): ValueLayer[] {
  return [...files.entries()]
    .filter(([path]) => /^(charts\/[^/]+\/)*values\.yaml$/.test(path))
    .sort(([a], [b]) => a.split('/').length - b.split('/').length)
    .map(([file, text]) => ({
      kind: 'chart' as const,
      file,
      prefix: file.split('/').filter((_, i, all) => i % 2 === 1 && all[i - 1] === 'charts'),
      values: parseYaml(text),
    }));
}

/**
 * A values file (YAML or JSON) as helm reads it (sigs.k8s.io/yaml: YAML 1.1, so `enabled: yes` is
 * true and `mode: 0644` is 420): its first document; undefined when it is not YAML (helm will have
 * said so).
 */
export function parseYaml(text: string): unknown {
  try {
    return loadManifestYaml(text).documents[0] ?? null;
  } catch {
    return undefined;
  }
}

/** `a.b`, `ingress.annotations["nginx.io/x"]`, `hosts[0]`; cut at 120 characters (keys are the repository's). */
function valuePath(path: readonly string[]): string {
  const text = path
    .map((p, i) =>
      /^\d+$/.test(p)
        ? `[${p}]`
        : /^[A-Za-z_][\w-]*$/.test(p)
          ? i === 0
            ? p
            : `.${p}`
          : `[${JSON.stringify(p)}]`,
    )
    .join('');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A chart's template or file name as written when it is plain, else quoted (escapes shown) and cut. */
function shown(name: string): string {
  return /^[\w./-]{1,120}$/.test(name) ? name : JSON.stringify(name.slice(0, 120));
}

/** `text` with each string (4+ characters) of the given values replaced by `<value of path>`. */
function redact(text: string, given: readonly ValueLayer[]): string {
  const strings = new Map<string, string>();
  const walk = (value: unknown, path: string[]): void => {
    if (typeof value === 'string') {
      if (value.length >= 4 && !strings.has(value)) strings.set(value, valuePath(path));
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  for (const layer of given) walk(layer.values, []);
  if (strings.size === 0) return text;
  // One pass, longest first: a value inside a longer one does not leave the rest of the longer
  // one, and no replacement is replaced again.
  const any = new RegExp(
    [...strings.keys()]
      .sort((a, b) => b.length - a.length)
      .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return text.replace(any, (value) => `<value of ${strings.get(value)!}>`);
}
