import type { HelmRequest } from '../recorded/render-request.js';

/**
 * The `helm template` command line of a request, its chart and values files already confined and
 * copied (`chartDir`, `valuesFiles` absolute, the code's values last). Never `--repo`, never
 * `--dependency-update`, never `--validate`: helm reads only the chart, the values and these
 * flags. Pure.
 */
export function helmTemplateArgs(
  request: HelmRequest,
  files: { chartDir: string; valuesFiles: readonly string[] },
): string[] {
  return [
    'template',
    request.releaseName,
    files.chartDir,
    ...(request.namespace ? ['--namespace', request.namespace] : []),
    ...(request.kubeVersion ? ['--kube-version', request.kubeVersion] : []),
    ...request.apiVersions.flatMap((v) => ['--api-versions', v]),
    ...(request.includeCrds ? ['--include-crds'] : []),
    ...(request.includeTests ? [] : ['--skip-tests']),
    ...files.valuesFiles.flatMap((f) => ['--values', f]),
  ];
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
