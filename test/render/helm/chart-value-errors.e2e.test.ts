// Render errors that name the chart value helm failed on and where it came from (issue 23 item 7),
// with the real helm: a values.schema.json violation fed by an overlay through platform code, a nil
// pointer on a value nobody set, and `required` / `fail` messages; no given value is ever echoed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import { SynthValidationError, type ValidationIssue } from '../../../src/render/synth/validation.js';
import { childSynthError } from '../../harness/child-synth.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

let tools: RenderTools;
beforeAll(async () => {
  const helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
});

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    replicaCount: { type: 'integer' },
    password: { type: 'string', pattern: '^[a-z]*$' },
  },
});

/**
 * A platform whose overlay `dev` sets `ingress.replicas` and `ingress.password`, which platform code
 * passes to the chart `charts/web` as `replicaCount` and `password`, with `values/web.yaml` first.
 */
function webPlatform(opts: {
  overlay: string;
  valuesFile: string;
  templates: Record<string, string>;
}): string {
  const files: Record<string, string> = {
    'overlays/dev.yaml': opts.overlay,
    'values/web.yaml': opts.valuesFile,
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
    'charts/web/values.yaml': 'replicaCount: 1\nimage:\n  repository: nginx\n',
    'charts/web/values.schema.json': SCHEMA,
  };
  for (const [name, text] of Object.entries(opts.templates)) files[`charts/web/templates/${name}`] = text;
  return platformDir(
    `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ ingress: z.object({ replicas: z.union([z.string(), z.number()]), password: z.string() }) }),
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'web', {
      chart: 'charts/web',
      valuesFiles: ['values/web.yaml'],
      values: { replicaCount: values.ingress.replicas, password: values.ingress.password },
    });
  },
});
`,
    { files },
  );
}

const CM = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n${data}`;

async function renderIssue(dir: string): Promise<ValidationIssue> {
  const err = await childSynthError(dir, { renderTools: tools });
  expect(err).toBeInstanceOf(SynthValidationError);
  const issues = (err as SynthValidationError).issues.filter((i) => i.severity === 'error');
  expect(issues).toHaveLength(1);
  return issues[0]!;
}

describe('a chart render error names the value and where it came from', () => {
  it('a schema violation fed by an overlay value: the value path, its type, the construct values and probably the overlay key', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: abc\n  replicas: "3"\n',
      valuesFile: 'image:\n  tag: "1.0"\n',
      templates: { 'cm.yaml': CM('  r: {{ .Values.replicaCount | quote }}\n') },
    });
    const issue = await renderIssue(dir);
    expect(issue).toMatchObject({ path: 'platform/web', field: 'values.replicaCount', overlay: 'dev' });
    expect(issue.message).toContain("at '/replicaCount': got string, want integer");
    expect(issue.message).toContain(
      "replicaCount is a string, from the construct's values (values.replicaCount)",
    );
    expect(issue.from).toBe(
      'overlays/dev.yaml:3 (ingress.replicas), probably: it holds the value of values.replicaCount',
    );
    expect(issue.fix).toMatch(
      /^change overlays\/dev\.yaml ingress\.replicas \(or the code that sets values\.replicaCount\)/,
    );
  });

  it('hostile: a secret the schema rejects is named by its path and type, never printed', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: Hunter2-Secret\n  replicas: 3\n',
      valuesFile: '{}\n',
      templates: { 'cm.yaml': CM('  r: {{ .Values.replicaCount | quote }}\n') },
    });
    const issue = await renderIssue(dir);
    expect(issue.field).toBe('values.password');
    expect(issue.message).toContain("password is a string, from the construct's values (values.password)");
    expect(issue.message).toContain("'<value of password>' does not match pattern");
    expect(JSON.stringify(issue)).not.toContain('Hunter2-Secret');
    expect(issue.from).toContain('overlays/dev.yaml:2 (ingress.password)');
  });

  it('a nil pointer on a value nobody set names the value and says it is set nowhere', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: abc\n  replicas: 2\n',
      valuesFile: 'image:\n  tag: "1.0"\n',
      templates: { 'cm.yaml': CM('  host: {{ .Values.db.host | quote }}\n') },
    });
    const issue = await renderIssue(dir);
    expect(issue.field).toBe('chart');
    expect(issue.message).toContain('helm template failed at web/templates/cm.yaml:6:');
    expect(issue.message).toContain("db.host is not set in values, valuesFiles or the chart's values.yaml");
    expect(issue.fix).toBe("set db.host in the construct's values or a values file");
    expect(issue.from).toBeUndefined();
  });

  it('required names the value its line reads, and the values file that set its parent', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: abc\n  replicas: 2\n',
      valuesFile: 'image:\n  repository: quay.io/web\n',
      templates: {
        'cm.yaml': CM('  tag: {{ required "image.tag is required: set it" .Values.image.tag | quote }}\n'),
      },
    });
    const issue = await renderIssue(dir);
    expect(issue.message).toContain('helm template failed at web/templates/cm.yaml:6: execution error');
    expect(issue.message).toContain('image.tag is required: set it');
    expect(issue.message).toContain(
      'image.tag is not set (image is a map, from valuesFiles[0] values/web.yaml)',
    );
  });

  it('required inside a helper (as kyverno with config.create false): the value, the helper, and the condition the values file set', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: abc\n  replicas: 2\n',
      valuesFile: 'config:\n  create: false\n',
      templates: {
        '_helpers.tpl':
          '{{- define "web.configName" -}}\n{{- if .Values.config.create -}}\nweb\n{{- else -}}\n{{ required "config.name is required when config.create is false" .Values.config.name }}\n{{- end -}}\n{{- end -}}\n',
        'cm.yaml': CM('  name: {{ include "web.configName" . }}\n'),
      },
    });
    const issue = await renderIssue(dir);
    expect(issue.field).toBe('chart');
    expect(issue.message).toContain('helm template failed at web/templates/cm.yaml:6: execution error');
    expect(issue.message).toContain(
      'config.name is not set (config is a map, from valuesFiles[0] values/web.yaml)',
    );
    expect(issue.message).toContain(
      'it is required in web.configName (templates/_helpers.tpl:5), which that line includes',
    );
    expect(issue.fix).toBe(
      "set config.name in the construct's values or a values file, or change valuesFiles[0] (the condition it is required under)",
    );
  });

  it('hostile: fail quoting a value from a values file names it by path, never prints it', async () => {
    const dir = webPlatform({
      overlay: 'ingress:\n  password: abc\n  replicas: 2\n',
      valuesFile: 'mode: Sup3r-Secret-Mode\n',
      templates: {
        'cm.yaml': CM(
          '{{- if ne .Values.mode "fast" }}\n{{- fail (printf "mode %s is not supported" .Values.mode) }}\n{{- end }}\n  a: b\n',
        ),
      },
    });
    const issue = await renderIssue(dir);
    expect(issue.field).toBe('valuesFiles[0]');
    expect(issue.message).toContain('mode <value of mode> is not supported');
    expect(issue.message).toContain(
      'the failing line reads mode: a string, from valuesFiles[0] values/web.yaml',
    );
    expect(issue.fix).toMatch(/^change mode in values\/web\.yaml/);
    expect(JSON.stringify(issue)).not.toContain('Sup3r-Secret-Mode');
  });
});
