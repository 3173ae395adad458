import { isAbsolute, relative, resolve, sep } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { nameProblem } from '../../core/object-name.js';
import type { HelmRequest } from '../recorded/render-request.js';

/** What `helmTemplateArgs` puts on the command line besides the request's own values. */
export interface HelmTemplateFiles {
  /** The chart: a directory of the checkout or an archive of the archive cache (real paths). */
  chart: string;
  /** The directories a chart may be in: the checkout and the chart archive cache. */
  chartRoots: readonly string[];
  /** The values files, in order: each one Groundwork wrote into `valuesDir`. */
  valuesFiles: readonly string[];
  /** The temporary directory Groundwork wrote the values files into. */
  valuesDir: string;
}

/** The flags `helmTemplateArgs` may emit, and no others (each as one `--flag=value` element). */
export const HELM_TEMPLATE_FLAGS = [
  '--namespace',
  '--kube-version',
  '--api-versions',
  '--include-crds',
  '--skip-tests',
  '--values',
] as const;

/** helm's own release name rule (`chartutil.ValidateReleaseName`): a DNS-1123 subdomain of at most 53. */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const KUBE_VERSION = /^v?\d{1,4}\.\d{1,4}(\.\d{1,4})?([-+][0-9A-Za-z.-]{1,64})?$/;
/** `group/version`, `version`, or `group/version/Kind`: what `Capabilities.APIVersions.Has` takes. */
const API_VERSION = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[a-z0-9]+(\/[A-Za-z][A-Za-z0-9]*)?$/;

/**
 * The `helm template` command line of a request: `template`, the flags (each one element
 * `--flag=value`, from `HELM_TEMPLATE_FLAGS` only), then `--` and the two positionals, the release
 * name and the chart. Every value from the request is checked for its slot first, so nothing the
 * repository wrote (the recorded request comes from platform code) can become a flag
 * (`--post-renderer`, `--set-file`, `-f`) or name another file: the release name by helm's rule (a
 * DNS-1123 subdomain of at most 53 characters), the namespace a DNS-1123 label, the kube version
 * and API versions by their shapes; the chart must be inside one of `chartRoots` and each values
 * file directly inside `valuesDir`. Never `--repo`, `--dependency-update`, `--validate` or
 * `--post-renderer`: helm reads only the chart, the values and these flags. Pure; throws
 * `UnsafeToolArgument` naming the field (never running helm) when a value does not fit.
 */
export function helmTemplateArgs(request: HelmRequest, files: HelmTemplateFiles): string[] {
  const problem = helmRequestProblem(request);
  if (problem) throw unsafe(request, problem.field, problem.message);
  if (!files.chartRoots.some((root) => inside(root, files.chart)))
    throw unsafe(request, 'chart', 'the chart is neither in the checkout nor in the chart archive cache');
  for (const f of files.valuesFiles)
    if (resolve(f, '..') !== resolve(files.valuesDir) || f.includes('\n'))
      throw unsafe(request, 'valuesFiles', 'a values file is not one Groundwork wrote');
  return [
    'template',
    ...(request.namespace ? [`--namespace=${request.namespace}`] : []),
    ...(request.kubeVersion ? [`--kube-version=${request.kubeVersion}`] : []),
    ...request.apiVersions.map((v) => `--api-versions=${v}`),
    ...(request.includeCrds ? ['--include-crds'] : []),
    ...(request.includeTests ? [] : ['--skip-tests']),
    ...files.valuesFiles.map((f) => `--values=${f}`),
    '--',
    request.releaseName,
    files.chart,
  ];
}

/**
 * The first value of a recorded helm request that may not reach helm's command line, with its
 * field, or undefined: the release name (helm's rule), the namespace (a DNS-1123 label), the kube
 * version (`1.29`, `v1.29.0`) and each API version (`group/version[/Kind]`). Pure; the message
 * quotes the value cut at 80 characters.
 */
export function helmRequestProblem(
  request: Pick<HelmRequest, 'releaseName' | 'namespace' | 'kubeVersion' | 'apiVersions'>,
): { field: string; message: string } | undefined {
  const quoted = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (!(request.releaseName.length <= 53 && RELEASE_NAME.test(request.releaseName)))
    return {
      field: 'releaseName',
      message: `release name ${quoted(request.releaseName)} is not one helm accepts (lower-case letters, digits, '-' and '.', at most 53 characters)`,
    };
  if (request.namespace !== undefined && nameProblem(request.namespace, 'dns-label'))
    return { field: 'namespace', message: `namespace ${nameProblem(request.namespace, 'dns-label')}` };
  if (request.kubeVersion !== undefined && !KUBE_VERSION.test(request.kubeVersion))
    return {
      field: 'kubeVersion',
      message: `kube version ${quoted(request.kubeVersion)} is not a version such as 1.29.0`,
    };
  const api = request.apiVersions.find((v) => v.length > 317 || !API_VERSION.test(v));
  if (api !== undefined)
    return {
      field: 'apiVersions',
      message: `API version ${quoted(api)} is not group/version or group/version/Kind`,
    };
  return undefined;
}

/** Whether `path` is `root` or below it, lexically (both resolved; the caller resolved links). */
function inside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

function unsafe(request: HelmRequest, field: string, message: string): GroundworkError {
  return new GroundworkError({
    code: 'UnsafeToolArgument',
    subject: `${request.path} ${field}`,
    message: `${message}: helm was not run`,
    fix: 'give the chart a release name helm accepts (lower-case letters, digits and -, at most 53 characters) and a namespace that is a DNS-1123 label',
  });
}

/** Where helm's message points: the chart's template file and line. */
export interface HelmFailure {
  /** `hello/templates/deployment.yaml`, when helm names one. */
  template?: string;
  line?: number;
  /** helm's first error line, without `Error: `, bounded to 400 characters, control characters removed. */
  message: string;
}

/**
 * Reads helm's stderr: the first `Error:` line, and the template file and line it names
 * (`template: x/templates/a.yaml:12:3: executing ...`, `execution error at (x/templates/a.yaml:3:4)`,
 * `parse error at (x/templates/a.yaml:7)`, `YAML parse error on x/templates/a.yaml`). Pure.
 */
export function readHelmFailure(stderr: string): HelmFailure {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  const errorLine =
    lines.find((l) => l.startsWith('Error:')) ?? lines.at(-1) ?? 'helm failed without a message';
  // The lines after `Error:` carry the detail of a schema failure (`- replicas: Invalid type`).
  const detail = lines
    .slice(lines.indexOf(errorLine) + 1)
    .filter((l) => /^\s*-\s/.test(l))
    .slice(0, 5);
  const head = errorLine.replace(/^Error:\s*/, '');
  // `...in the following chart(s):` is followed by its details, not by a second sentence.
  const message = oneLine([head, ...detail.map((d) => d.trim())].join('; ').replace(/:; /, ': '));
  const at =
    /\(([^()\s:]+\/templates\/[^()\s:]+):(\d+)/.exec(errorLine) ??
    /template: ([^\s:]+\/templates\/[^\s:]+):(\d+)/.exec(errorLine) ??
    /on ([^\s:]+\/templates\/[^\s:]+)/.exec(errorLine);
  return {
    message,
    ...(at?.[1] ? { template: at[1] } : {}),
    ...(at?.[2] ? { line: Number(at[2]) } : {}),
  };
}

/** A tool's message as one line of at most 400 characters, control characters replaced by spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 400);
}
