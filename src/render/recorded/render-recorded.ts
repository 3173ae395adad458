import { loadProjectConfig, type ProjectConfig } from '../../project/config.js';
import { compareManifests, setHash, toManifest, type Manifest } from '../synth/manifest.js';
import { overlayOrigins, type ValueOrigin } from '../synth/overlays.js';
import type { SynthResult } from '../synth/synthesize.js';
import { SynthValidationError, type ValidationIssue } from '../synth/validation.js';
import { join } from 'node:path';
import { cacheRoot } from '../../core/cache-root.js';
import { idOf } from '../../core/object-id.js';
import type { K8sObject } from '../../core/object.js';
import { chartFilesOf } from '../helm/chart-files.js';
import { renderDifferences, type RenderDifference } from './render-differences.js';
import { storeRender } from './render-cache.js';
import { renderHelm } from '../helm/render-helm.js';
import { renderKustomize } from '../kustomize/render-kustomize.js';
import type { ChartLockEntry } from '../helm/chart-lock.js';
import type { ChartFacts, RenderLimits, RenderOutcome } from './render-outcome.js';
import type { RenderRequest } from './render-request.js';
import type { RenderedChart } from '../helm/rendered-chart.js';
import { renderedTypeProblems, valuePaths } from './rendered-types.js';
import { renderedNameProblems } from './rendered-names.js';
import { templatesCalling } from '../helm/templates-calling.js';
import {
  ignoredPointers,
  parseRendered,
  placeRendered,
  type IgnoreRule,
  type RenderedObject,
} from './rendered-objects.js';

/** The binaries, resolved only when a platform records something for them. */
export interface RenderTools {
  helm(): Promise<string>;
  kustomize(): Promise<string>;
}

export interface RenderRecordedOptions {
  /** The checkout (its real path): charts, values files and kustomizations must be inside it. */
  dir: string;
  tools: RenderTools;
  /** @default 60 s and 64 MiB per render */
  limits?: Partial<RenderLimits>;
  /**
   * Where renders are kept: helm's by (chart digest, values, flags, helm binary), kustomize's by
   * (the files it could read, binary, arguments); a hit is not rendered again. `false`: no cache.
   * @default `<cache root>/renders`, unless GROUNDWORK_SYNTH_CACHE=0
   */
  cacheDir?: string | false;
  /** groundwork.yaml as read (where overlays live, for the origins of a failing value). @default read from `dir` */
  config?: ProjectConfig;
  /** The archive of a locked chart (`HelmContext.archive`). @default cache, else download */
  archive?: (entry: ChartLockEntry) => Promise<string>;
}

/**
 * Renders what platform code recorded (`SynthResult.renders`) and returns the results with the
 * rendered objects among their manifests (each with the recording construct's path as its
 * source, placed by `placeRendered`), sorted and hashed again, and no `renders` left. Results with
 * nothing recorded are returned unchanged. Helm charts are rendered twice: output that differs
 * (`randAlphaNum`, `genCA`, `now`, `uuidv4`) is an error naming the objects and fields, instead of a
 * new random value applied on every cycle. Every problem of every render is collected, each on its
 * construct's path (a chart that fails, a path outside the checkout, a remote base, an object
 * another construct emits too), and thrown once as `SynthValidationError`: nothing partial.
 */
export async function renderRecorded(
  results: readonly SynthResult[],
  opts: RenderRecordedOptions,
): Promise<SynthResult[]> {
  const limits: RenderLimits = { timeoutMs: 60_000, outputCapBytes: 64 * 1024 * 1024, ...opts.limits };
  const issues: ValidationIssue[] = [];
  const out: SynthResult[] = [];
  for (const result of results) {
    const { renders = [], ...rest } = result;
    if (renders.length === 0) {
      out.push(rest);
      continue;
    }
    const issue = (r: RenderRequest, field: string, message: string, fix?: string, from?: string) =>
      issues.push({
        path: r.path,
        field,
        message,
        ...(fix ? { fix } : {}),
        ...(from ? { from } : {}),
        severity: 'error',
        overlay: result.overlay,
      });
    const manifests: Manifest[] = [...result.manifests];
    const charts: RenderedChart[] = [];
    const warnings: ValidationIssue[] = [...result.warnings];
    const owners = new Map(manifests.map((m) => [m.id, m.source] as const));
    // Read once, and only when a chart fails on a value of its construct's values.
    let origins: Promise<readonly ValueOrigin[]> | undefined;
    const overlayValues = () => (origins ??= originsOfOverlay(opts, result.overlay));
    for (const request of renders) {
      const rendered = await renderOne(request, opts, limits, overlayValues);
      if (!rendered.ok) {
        issue(request, rendered.field, rendered.problem, rendered.fix, rendered.from);
        // The tool's warnings besides its error (kustomize's deprecations), apart from it.
        for (const message of rendered.warnings ?? [])
          warnings.push({
            path: request.path,
            field: rendered.field,
            message: `${request.engine} warned: ${message}`,
            fix: 'not what failed the render (the error above did); `kustomize edit fix` rewrites deprecated fields',
            severity: 'warning',
            overlay: result.overlay,
          });
        continue;
      }
      for (const w of rendered.warnings ?? [])
        warnings.push({
          path: request.path,
          field: w.field,
          message: w.message,
          fix: w.fix,
          severity: 'warning',
          overlay: result.overlay,
        });
      if (request.engine === 'helm' && rendered.chart)
        charts.push({
          path: request.path,
          chart: request.chart,
          ...(request.repo ? { repo: request.repo } : {}),
          ...(rendered.chart.version !== undefined ? { version: rendered.chart.version } : {}),
          valuesHash: rendered.chart.valuesHash,
        });
      for (const { object, template } of rendered.objects) {
        const named = renderedNameProblems(object);
        for (const p of named)
          issue(request, template ? `${template} ${p.field}` : p.field, p.message, p.fix);
        if (named.length > 0) continue;
        // A wrong JSON type the chart let through (`replicas: "3"`) fails here, not at apply.
        const typed = renderedTypeProblems(object);
        for (const p of typed) {
          // The construct's value that holds the wrong value, when exactly one does, and where it was set.
          const [set, ...others] = request.engine === 'helm' ? valuePaths(request.values, p.value) : [];
          const one = set !== undefined && others.length === 0;
          const origins = one ? (await overlayValues()).filter((o) => o.value === String(p.value)) : [];
          issue(
            request,
            template ? `${template} ${p.field}` : p.field,
            one ? `${p.message} (from values.${set})` : p.message,
            p.fix,
            origins.length > 0 ? origins.map((o) => `${o.at} (${o.key})`).join(', ') : undefined,
          );
        }
        if (typed.length > 0) continue;
        const m = toManifest(object, request.path);
        const other = owners.get(m.id);
        if (other) {
          issue(
            request,
            template ?? '',
            `${m.object.kind} ${m.object.metadata.namespace ? `${m.object.metadata.namespace}/` : ''}${m.object.metadata.name} is also emitted by ${other}`,
            'each object must be declared once: disable it in the chart values, or remove the other declaration',
          );
          continue;
        }
        owners.set(m.id, request.path);
        manifests.push(m);
      }
    }
    manifests.sort(compareManifests);
    out.push({
      ...rest,
      manifests,
      hash: setHash(manifests),
      warnings,
      ...(charts.length > 0 ? { charts } : {}),
    });
  }
  // With the warnings of the renders too (a failed kustomize's deprecations).
  if (issues.length > 0) throw new SynthValidationError([...issues, ...out.flatMap((r) => r.warnings)]);
  return out;
}

/** The differences left once each object's ignored pointers (and the fields under them) are set aside. */
function notIgnored(
  differences: readonly RenderDifference[],
  objects: readonly K8sObject[],
  rules: readonly IgnoreRule[],
): RenderDifference[] {
  const byId = new Map(objects.map((o) => [idOf(o), o] as const));
  return differences
    .map((d) => {
      const obj = byId.get(d.id);
      const ignored = obj ? ignoredPointers(obj, rules) : [];
      const pointers = d.pointers.filter((p) => !ignored.some((i) => p === i || p.startsWith(`${i}/`)));
      return { ...d, pointers };
    })
    .filter((d) => d.pointers.length > 0);
}

/** A warning about a render, for the recording construct. */
interface RenderWarning {
  field: string;
  message: string;
  fix: string;
}

type Rendered =
  | { ok: true; objects: RenderedObject[]; chart?: ChartFacts; warnings?: RenderWarning[] }
  | { ok: false; field: string; problem: string; fix?: string; from?: string; warnings?: string[] };

/** One request rendered, parsed and placed; a helm chart twice, to catch non-determinism. */
async function renderOne(
  request: RenderRequest,
  opts: RenderRecordedOptions,
  limits: RenderLimits,
  overlayOrigins: () => Promise<readonly ValueOrigin[]>,
): Promise<Rendered> {
  const cacheDir =
    opts.cacheDir === false || (opts.cacheDir === undefined && process.env.GROUNDWORK_SYNTH_CACHE === '0')
      ? undefined
      : (opts.cacheDir ?? join(cacheRoot(), 'renders'));
  const render = async (): Promise<RenderOutcome> =>
    request.engine === 'helm'
      ? renderHelm(request, {
          dir: opts.dir,
          helm: await opts.tools.helm(),
          limits,
          ...(cacheDir ? { cacheDir } : {}),
          ...(opts.archive ? { archive: opts.archive } : {}),
          overlayOrigins,
        })
      : renderKustomize(request, {
          dir: opts.dir,
          kustomize: await opts.tools.kustomize(),
          limits,
          ...(cacheDir ? { cacheDir } : {}),
        });
  const placement = {
    ...(request.engine === 'helm' && request.namespace ? { namespace: request.namespace } : {}),
    includeTests: request.engine === 'helm' && request.includeTests,
    ignore: request.engine === 'helm' ? request.ignoreDifferences : [],
  };
  const first = await render();
  if (!first.ok) return first;
  const parsed = parseRendered(first.text);
  if (parsed.problems.length > 0) {
    const p = parsed.problems[0]!;
    return {
      ok: false,
      field: p.template ?? '',
      problem: `document ${p.document}${p.template ? ` of ${p.template}` : ''} ${p.message}`,
      fix: 'make the template render Kubernetes objects only',
    };
  }
  // A key held twice: kubectl and helm use the last value, and so does Groundwork, but say so.
  const readWarnings = parsed.warnings.map((w) => ({
    field: w.template ?? '',
    message: `document ${w.document}${w.template ? ` of ${w.template}` : ''} ${w.message}`,
    fix: 'write the key once (the value applied is the last one)',
  }));
  const placed = placeRendered(parsed.objects, placement).objects;
  if (request.engine !== 'helm') {
    // Rendered once: see renderKustomize on why kustomize's output cannot differ between runs.
    if (cacheDir && first.cacheKey && !first.cached) await storeRender(cacheDir, first.cacheKey, first.text);
    return { ok: true, objects: placed, warnings: readWarnings };
  }
  // Directory charts and locked archives alike, subcharts in charts/ (directories and .tgz) included.
  const lookups = first.source ? templatesCalling((await chartFilesOf(first.source)).files, 'lookup') : [];
  const ok = {
    ok: true as const,
    objects: placed,
    ...(first.chart ? { chart: first.chart } : {}),
    warnings: [
      ...readWarnings,
      ...lookups.map((template) => ({
        field: template,
        message: `calls lookup, which returns nothing at synth (as in helm template, Argo CD and Flux): what it would read from the cluster is empty`,
        fix: 'set the value it looks up in values; a chart that generates a secret when lookup finds none renders differently each time and fails synth',
      })),
    ],
  };
  // A cached render passed this check when it was stored.
  if (first.cached) return ok;
  const store = async () => {
    if (cacheDir && first.cacheKey) await storeRender(cacheDir, first.cacheKey, first.text);
    return ok;
  };
  const second = await render();
  if (!second.ok) return second;
  if (second.text === first.text) return store();
  const differences = notIgnored(
    renderDifferences(
      placed.map((o) => o.object),
      placeRendered(parseRendered(second.text).objects, placement).objects.map((o) => o.object),
    ),
    placed.map((o) => o.object),
    request.ignoreDifferences,
  );
  if (differences.length === 0) return store();
  const shown = differences
    .slice(0, 5)
    .map((d) => `${d.id} at ${d.pointers.join(', ')}`)
    .join('; ');
  return {
    ok: false,
    field: 'chart',
    problem: `renders differently each time (randAlphaNum, genCA, now, uuidv4...): ${shown}${differences.length > 5 ? ` (+${differences.length - 5} more)` : ''}; applied as is, every cycle would change them`,
    fix: "set the value in values (a password from a Secret you create, an existing certificate), or ignore the field with the chart's ignoreDifferences: [{ kind, name, pointers }]",
  };
}

/** The overlay's scalar values and where each was set (`overlayOrigins`); none when they cannot be read. */
async function originsOfOverlay(
  opts: RenderRecordedOptions,
  overlay: string,
): Promise<readonly ValueOrigin[]> {
  try {
    const config = opts.config ?? (await loadProjectConfig(opts.dir));
    return await overlayOrigins(join(opts.dir, config.overlays), overlay, opts.dir);
  } catch {
    return [];
  }
}
