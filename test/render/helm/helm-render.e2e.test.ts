// Charts rendered by the real helm through synth (HelmChart, cdk8s's Helm), compared with what
// `helm template` gives for the same chart, and the sandbox around them.
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Names } from 'cdk8s';
import { beforeAll, describe, expect, it } from 'vitest';
import { Platform } from '../../../src/render/synth/platform.js';
import { renderRecorded, type RenderTools } from '../../../src/render/recorded/render-recorded.js';
import type { SynthResult } from '../../../src/render/synth/synthesize.js';
import { SynthValidationError } from '../../../src/render/synth/validation.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { byKindAndName, helmTemplate } from '../../harness/helm-template.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

const CHARTS = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

let helm: string;
let tools: RenderTools;
beforeAll(async () => {
  helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
});

/** A platform whose `build` body is `body`, with the fixture charts under `charts/`. */
function chartPlatform(
  body: string,
  opts: { imports?: string; files?: Record<string, string> } = {},
): string {
  const dir = platformDir(
    `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
${opts.imports ?? ''}
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    ${body}
  },
});
`,
    { ...(opts.files ? { files: opts.files } : {}) },
  );
  cpSync(CHARTS, join(dir, 'charts'), { recursive: true });
  return dir;
}

/** `helm template` run directly, parsed and placed as Groundwork places a chart's objects. */
describe('HelmChart rendered by the real helm', () => {
  it('a chart with subcharts, CRDs and test hooks gives the objects helm template gives, with the construct path', async () => {
    const dir = chartPlatform(
      `new HelmChart(platform, 'sub', { chart: 'charts/subchart', namespace: 'demo', valuesFiles: ['charts/subchart/extra_values.yaml'], values: { subchartb: { enabled: true } } });`,
    );
    const [result] = await childSynth(dir, { renderTools: tools });
    expect(result!).not.toHaveProperty('renders');
    expect(result!.charts).toEqual([
      {
        path: 'platform/sub',
        chart: 'charts/subchart',
        version: '0.1.0',
        valuesHash: expect.stringMatching(/^sha256:/),
      },
    ]);
    const fromChart = result!.manifests.filter((m) => m.source === 'platform/sub');
    writeFileSync(join(dir, 'code-values.json'), JSON.stringify({ subchartb: { enabled: true } }));
    const rendered = await helmTemplate(helm, 'sub', join(dir, 'charts/subchart'), {
      namespace: 'demo',
      args: [
        '--values',
        join(dir, 'charts/subchart/extra_values.yaml'),
        '--values',
        join(dir, 'code-values.json'),
      ],
    });
    expect(rendered.problems).toEqual([]);
    const expected = rendered.objects;
    expect(fromChart.length).toBeGreaterThan(5);
    expect(fromChart.map((m) => m.object).sort(byKindAndName)).toEqual(expected.sort(byKindAndName));
    const kinds = fromChart.map((m) => `${m.stage} ${m.object.kind}/${m.object.metadata.name}`);
    // The subcharts' Services, the CRD of crds/ in the CRD stage, no test hook.
    expect(kinds).toEqual(
      expect.arrayContaining(['resources Service/subcharta', 'resources Service/subchartb']),
    );
    expect(kinds.filter((k) => k.startsWith('crds '))).toHaveLength(1);
    expect(fromChart.some((m) => m.object.metadata.annotations?.['helm.sh/hook']?.includes('test'))).toBe(
      false,
    );
    expect(
      fromChart.every(
        (m) => m.object.kind === 'CustomResourceDefinition' || m.object.metadata.namespace === 'demo',
      ),
    ).toBe(true);
  });

  it("import { Helm } from 'cdk8s' records the chart with cdk8s's defaults (release name from the path, no CRDs, tests kept)", async () => {
    const dir = chartPlatform(
      `new Helm(platform, 'hello', { chart: './charts/subchart', namespace: 'demo' });`,
      {
        imports: `import { Helm } from 'cdk8s';`,
      },
    );
    const [result] = await childSynth(dir, { renderTools: tools });
    const fromChart = result!.manifests.filter((m) => m.source === 'platform/hello');
    expect(fromChart.length).toBeGreaterThan(3);
    expect(fromChart.some((m) => m.object.kind === 'CustomResourceDefinition')).toBe(false);
    expect(fromChart.some((m) => m.object.metadata.annotations?.['helm.sh/hook'] === 'test')).toBe(true);
    // cdk8s's Names.toDnsLabel of platform/hello: the release name the chart's names carry.
    const release = Names.toDnsLabel(new Platform(new App(), 'platform', { openshiftVersion: '4.16' }), {
      maxLen: 53,
      extra: ['hello'],
    });
    expect(fromChart.map((m) => m.object.metadata.name)).toContain(`${release}-testconfig`);
  });

  it('values.schema.json is enforced: the error names the construct, the chart and the field', async () => {
    const dir = chartPlatform(
      `new HelmChart(platform, 'schema', { chart: 'charts/chart-with-schema', values: { age: -5 } });`,
    );
    const err = await childSynthError(dir, { renderTools: tools });
    expect(err).toBeInstanceOf(SynthValidationError);
    const [issue] = (err as SynthValidationError).issues;
    // The value helm rejects came from the construct's values: the field names it.
    expect(issue).toMatchObject({ path: 'platform/schema', field: 'values.age', severity: 'error' });
    expect(issue!.message).toContain("age is a number, from the construct's values (values.age)");
    expect(issue!.fix).toMatch(/values\.schema\.json/);
  });

  it('a template error names the template file and line', async () => {
    const dir = chartPlatform(`new HelmChart(platform, 'broken', { chart: 'charts/broken' });`, {
      files: {
        'charts/broken/Chart.yaml': 'apiVersion: v2\nname: broken\nversion: 0.1.0\n',
        'charts/broken/templates/cm.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: {{ .Values.missing.deeper }}\n',
      },
    });
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/broken', field: 'chart' });
    expect(err.issues[0]!.message).toContain('broken/templates/cm.yaml:6');
  });

  it('a chart that renders differently each time (randAlphaNum) fails synth naming the objects and fields, and passes with the field ignored or set', async () => {
    const chart = `chart: 'charts/chart-with-uncompressed-dependencies', namespace: 'blog'`;
    const flapping = chartPlatform(`new HelmChart(platform, 'blog', { ${chart} });`);
    const err = (await childSynthError(flapping, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/blog', field: 'chart' });
    expect(err.issues[0]!.message).toMatch(/renders differently each time/);
    expect(err.issues[0]!.message).toContain(
      'blog_blog-mariadb__Secret at /data/mariadb-password, /data/mariadb-root-password',
    );
    expect(err.issues[0]!.fix).toMatch(/ignoreDifferences/);

    const ignored = chartPlatform(
      `new HelmChart(platform, 'blog', { ${chart}, ignoreDifferences: [{ kind: 'Secret', name: 'blog-mariadb', pointers: ['/data'] }] });`,
    );
    const [result] = await childSynth(ignored, { renderTools: tools });
    const secret = result!.manifests.find((m) => m.object.kind === 'Secret')!;
    expect(secret.object.metadata.annotations?.['groundwork.io/ignore-differences']).toBe('["/data"]');

    const fixed = chartPlatform(
      `new HelmChart(platform, 'blog', { ${chart}, values: { mariadb: { rootUser: { password: 'r' }, db: { password: 'p' } } } });`,
    );
    await expect(childSynth(fixed, { renderTools: tools })).resolves.toHaveLength(1);
  });

  it('an unchanged chart is rendered once (twice, for the determinism check) and then taken from the render cache; other values render again', async () => {
    const work = mkdtempSync(join(tmpdir(), 'gw-render-cache-'));
    const calls = join(work, 'calls');
    const wrapper = join(work, 'helm');
    writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> ${calls}\nexec ${helm} "$@"\n`, { mode: 0o755 });
    const counted = { ...tools, helm: async () => wrapper };
    const count = () => readFileSync(calls, 'utf8').trim().split('\n').length;
    // The wrapper logs to a file of this test and starts the real helm beside it, neither in the
    // isolated renderer's view: these renders run trusted (the cache is under test here).
    const counting = {
      renderTools: counted,
      cache: true,
      trustRepository: true,
      isolation: { userNamespaces: false, rootNamespaces: false },
    };
    const saved = process.env.GROUNDWORK_CACHE_DIR;
    process.env.GROUNDWORK_CACHE_DIR = join(work, 'cache');
    try {
      const dir = chartPlatform(
        `new HelmChart(platform, 'sub', { chart: 'charts/subchart', namespace: 'demo' });`,
      );
      const [first] = await childSynth(dir, counting);
      expect(count()).toBe(2);
      const [second] = await childSynth(dir, counting);
      expect(count()).toBe(2);
      expect(second!.hash).toBe(first!.hash);
      writeFileSync(
        join(dir, 'charts/subchart/values.yaml'),
        `${readFileSync(join(dir, 'charts/subchart/values.yaml'), 'utf8')}\n# edited\n`,
      );
      await childSynth(dir, counting);
      expect(count()).toBe(4);
    } finally {
      if (saved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
      else process.env.GROUNDWORK_CACHE_DIR = saved;
    }
  });

  it('a chart version other than the one asked for fails synth', async () => {
    const dir = chartPlatform(
      `new HelmChart(platform, 'sub', { chart: 'charts/subchart', version: '0.2.0' });`,
    );
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/sub', field: 'version' });
    expect(err.issues[0]!.message).toContain('holds version 0.1.0');
  });
});

describe('the sandbox around charts (hostile repositories)', () => {
  it('lookup finds nothing (helm renders without a cluster), and synth warns about the template that calls it', async () => {
    const dir = chartPlatform(`new HelmChart(platform, 'peek', { chart: 'charts/peek', namespace: 'x' });`, {
      files: {
        'charts/peek/Chart.yaml': 'apiVersion: v2\nname: peek\nversion: 0.1.0\n',
        'charts/peek/templates/cm.yaml':
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: peek\ndata:\n  secrets: {{ lookup "v1" "Secret" "" "" | toJson | quote }}\n  namespaces: {{ lookup "v1" "Namespace" "" "" | toJson | quote }}\n',
      },
    });
    const [result] = await childSynth(dir, { renderTools: tools });
    const cm = result!.manifests.find((m) => m.object.metadata.name === 'peek')!;
    expect(cm.object.data).toEqual({ secrets: '{}', namespaces: '{}' });
    // ... and synth says so, where Argo CD and Flux render the empty result silently.
    expect(result!.warnings).toEqual([
      expect.objectContaining({
        path: 'platform/peek',
        field: 'templates/cm.yaml',
        severity: 'warning',
        message: expect.stringContaining('calls lookup'),
      }),
    ]);
  });

  it('a values file linked out of the checkout is refused and never read', async () => {
    const outside = join(platformDir('export default 1;'), 'secret-values.yaml');
    writeFileSync(outside, 'password: hunter2\n');
    const dir = chartPlatform(
      `new HelmChart(platform, 'sub', { chart: 'charts/subchart', valuesFiles: ['values.yaml'] });`,
    );
    symlinkSync(outside, join(dir, 'values.yaml'));
    // The whole checkout's links are checked before synth (the tree walk) ...
    const err = await childSynthError(dir, { renderTools: tools });
    expect(err.code).toBe('SymlinkOutsideCheckout');
    expect(err.message).not.toContain('hunter2');
    // ... and the render confines the path itself (a link made after that walk).
    const request = {
      engine: 'helm' as const,
      path: 'platform/sub',
      chart: 'charts/subchart',
      releaseName: 'sub',
      values: {},
      valuesFiles: ['values.yaml'],
      includeCrds: true,
      includeTests: false,
      apiVersions: [],
      ignoreDifferences: [],
    };
    const rendered = await renderRecorded([resultWith([request])], { dir, tools }).catch((e: unknown) => e);
    expect(rendered).toBeInstanceOf(SynthValidationError);
    expect((rendered as SynthValidationError).issues[0]).toMatchObject({
      path: 'platform/sub',
      field: 'valuesFiles[0]',
    });
    expect((rendered as SynthValidationError).message).toMatch(/outside the repository checkout/);
    expect((rendered as SynthValidationError).message).not.toContain('hunter2');
  });

  it('a chart directory outside the checkout (..) is refused', async () => {
    const dir = chartPlatform(`new HelmChart(platform, 'out', { chart: '../../etc' });`);
    const err = (await childSynthError(dir, { renderTools: tools })) as SynthValidationError;
    expect(err.issues[0]).toMatchObject({ path: 'platform/out', field: 'chart' });
    expect(err.issues[0]!.message).toMatch(/outside the repository checkout/);
  });

  it('platform code cannot start helm itself', async () => {
    const dir = chartPlatform(`spawnSync('${helm}', ['version']);`, {
      imports: `import { spawnSync } from 'node:child_process';`,
    });
    const err = await childSynthError(dir, { renderTools: tools });
    expect(err.code).toBe('NotPermitted');
    expect(err.message).toMatch(/start a child process/);
  });
});

function resultWith(renders: SynthResult['renders']): SynthResult {
  return {
    platform: 'p',
    overlay: 'dev',
    manifests: [],
    hash: `sha256:${'0'.repeat(64)}`,
    warnings: [],
    renders: renders!,
  };
}
