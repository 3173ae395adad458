// The lookup warning for a chart from an HTTP chart repository: the locked archive (made by the real
// helm package, served on loopback) is read in memory, its subcharts in charts/ too (a directory and
// a .tgz), and each template that calls lookup is named.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChartLock } from '../../../src/render/helm/chart-lock.js';
import { resolveChart } from '../../../src/render/helm/chart-repository.js';
import type { RenderTools } from '../../../src/render/recorded/render-recorded.js';
import type { SynthValidationError } from '../../../src/render/synth/validation.js';
import { serveChartRepository, type ChartRepositoryServer } from '../../harness/chart-repository-server.js';
import { childSynth, childSynthError } from '../../harness/child-synth.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath, useTools } from '../../harness/tools.js';

useTools('helm');

const run = promisify(execFile);
const CM = (name: string, data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  found: ${data}\n`;
const LOOKUP = '{{ lookup "v1" "Secret" "" "" | toJson | quote }}';

let tools: RenderTools;
let server: ChartRepositoryServer;
let repo: string;
let archive: Buffer;
const savedCache = process.env.GROUNDWORK_CACHE_DIR;

/** A platform using peeker from the loopback repository, locked, with `values` in code. */
async function peekerPlatform(values = '{}'): Promise<string> {
  const dir = platformDir(`import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'peek', { repo: '${repo}', chart: 'peeker', version: '1.0.0', namespace: 'x', values: ${values} });
  },
});
`);
  await writeChartLock(dir, [await resolveChart({ repo, name: 'peeker', version: '1.0.0' })]);
  return dir;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

beforeAll(async () => {
  const helm = await toolPath('helm');
  tools = { helm: async () => helm, kustomize: () => toolPath('kustomize') };
  const work = mkdtempSync(join(tmpdir(), 'gw-lookup-chart-'));
  const env = { PATH: '/usr/bin:/bin', HOME: work };
  // A subchart packed as an archive, kept in the parent's charts/ as helm dependency build leaves it.
  write(work, {
    'packed/Chart.yaml': 'apiVersion: v2\nname: packed\nversion: 0.1.0\n',
    'packed/templates/packed.yaml': CM('packed', LOOKUP),
    'peeker/Chart.yaml':
      'apiVersion: v2\nname: peeker\nversion: 1.0.0\ndependencies:\n  - name: inner\n    version: 0.1.0\n  - name: packed\n    version: 0.1.0\n',
    'peeker/templates/plain.yaml': CM('plain', '"no"'),
    'peeker/values.yaml': 'strict: false\n',
    'peeker/templates/strict.yaml':
      '{{- if .Values.strict }}\nkind: ConfigMap\nx: {{ required "password is required in strict mode" .Values.password | default .Values.strict }}\n{{- end }}\n',
    'peeker/templates/top.yaml': CM('top', LOOKUP),
    'peeker/charts/inner/Chart.yaml': 'apiVersion: v2\nname: inner\nversion: 0.1.0\n',
    'peeker/charts/inner/templates/inner.yaml': CM('inner', LOOKUP),
  });
  await run(helm, ['package', join(work, 'packed'), '--destination', join(work, 'peeker', 'charts')], {
    env,
  });
  await run(helm, ['package', join(work, 'peeker'), '--destination', work], { env });
  archive = readFileSync(join(work, 'peeker-1.0.0.tgz'));
  const index = `apiVersion: v1\nentries:\n  peeker:\n    - name: peeker\n      version: 1.0.0\n      urls: [peeker-1.0.0.tgz]\n`;
  server = await serveChartRepository({ 'index.yaml': () => index, 'peeker-1.0.0.tgz': () => archive });
  repo = server.url;
});

afterAll(async () => {
  process.env.GROUNDWORK_CACHE_DIR = savedCache;
  if (savedCache === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  await server.close();
});

describe('lookup in a chart from a chart repository', () => {
  it('warns naming each template that calls lookup: the archive, its subchart directory and its subchart archive', async () => {
    process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-chart-cache-'));
    const dir = await peekerPlatform();
    const [result] = await childSynth(dir, { renderTools: tools });
    // helm renders lookup as nothing in all three ...
    const data = result!.manifests
      .filter((m) => m.source === 'platform/peek')
      .map((m) => [m.object.metadata.name, (m.object.data as Record<string, string>).found]);
    expect(Object.fromEntries(data)).toEqual({ inner: '{}', packed: '{}', plain: 'no', top: '{}' });
    // ... and synth names each template, as helm names them, and not the one without lookup.
    const lookups = result!.warnings.filter((w) => w.message.includes('calls lookup'));
    expect(lookups.map((w) => [w.path, w.field])).toEqual([
      ['platform/peek', 'charts/inner/templates/inner.yaml'],
      ['platform/peek', 'charts/packed/templates/packed.yaml'],
      ['platform/peek', 'templates/top.yaml'],
    ]);
  });

  it("a render error of a locked archive names the value from the archive's own template line, and the construct value that switched it on", async () => {
    process.env.GROUNDWORK_CACHE_DIR = mkdtempSync(join(tmpdir(), 'gw-chart-cache-'));
    const err = (await childSynthError(await peekerPlatform('{ strict: true }'), {
      renderTools: tools,
    })) as SynthValidationError;
    const issue = err.issues.find((i) => i.severity === 'error')!;
    expect(issue).toMatchObject({ path: 'platform/peek', field: 'chart' });
    expect(issue.message).toContain(
      'helm template failed at peeker/templates/strict.yaml:3: execution error',
    );
    expect(issue.message).toContain(
      "(password is not set in values, valuesFiles or the chart's values.yaml; the failing line reads strict: a boolean, from the construct's values (values.strict))",
    );
    expect(issue.fix).toBe("set password in the construct's values or a values file");
  });
});
