// groundwork propose --dry-run renders a chart version before proposing it: the new version with
// the platform's values, in the isolated renderer (which renders each chart twice and compares) (real helm, real chart archives served
// from a chart repository on loopback). A version that renders is proposed; one whose template
// fails, or whose two renders differ, is refused with the reason.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRenderCheck } from '../../src/propose/chart-render-check.js';
import { serveChartRepository, type ChartRepositoryServer } from '../harness/chart-repository-server.js';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';
import { useTools } from '../harness/tools.js';

useTools('helm');

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const CONFIG_MAP = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Chart.Name }}\ndata:\n  ${data}\n`;

/**
 * The template of each chart version. The first of each chart is the pinned one and renders (the
 * other charts render at their pins while one is checked); pins differ, so each can be edited.
 */
const TEMPLATES: Record<string, Record<string, string>> = {
  good: {
    '1.0.0': CONFIG_MAP('version: "{{ .Chart.Version }}"'),
    '1.0.1': CONFIG_MAP('version: "{{ .Chart.Version }}"\n  replicas: "{{ .Values.replicas }}"'),
    '1.0.2': '{{ fail "good 1.0.2 is broken on purpose" }}\n',
  },
  broken: {
    '2.0.0': CONFIG_MAP('version: "{{ .Chart.Version }}"'),
    '2.0.1': CONFIG_MAP('version: "{{ required "a value the platform does not set" .Values.missing }}"'),
  },
  random: {
    '3.0.0': CONFIG_MAP('version: "{{ .Chart.Version }}"'),
    '3.0.1': CONFIG_MAP('password: "{{ randAlphaNum 16 }}"'),
  },
};

/** A real chart archive `<name>-<version>.tgz` holding the template above. */
function chartArchive(dir: string, name: string, version: string): Buffer {
  const top = join(dir, `${name}-${version}`);
  mkdirSync(join(top, name, 'templates'), { recursive: true });
  writeFileSync(join(top, name, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: ${version}\n`);
  writeFileSync(join(top, name, 'templates', 'cm.yaml'), TEMPLATES[name]![version]!);
  const out = join(dir, `${name}-${version}.tgz`);
  execFileSync('tar', ['-czf', out, '-C', top, name]);
  return readFileSync(out);
}

let server: ChartRepositoryServer;
let dir: string;
const archives = new Map<string, Buffer>();

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'gw-propose-charts-'));
  for (const [name, versions] of Object.entries(TEMPLATES))
    for (const version of Object.keys(versions))
      archives.set(`${name}-${version}.tgz`, chartArchive(work, name, version));
  const index = [
    'apiVersion: v1',
    'entries:',
    ...Object.entries(TEMPLATES).flatMap(([name, versions]) => [
      `  ${name}:`,
      ...Object.keys(versions).flatMap((v) => [
        `    - name: ${name}`,
        `      version: ${v}`,
        `      urls: [${name}-${v}.tgz]`,
      ]),
    ]),
    '',
  ].join('\n');
  server = await serveChartRepository({
    'index.yaml': () => index,
    ...Object.fromEntries([...archives].map(([file, bytes]) => [file, () => bytes])),
  });
  const charts = Object.keys(TEMPLATES);
  const pinned = (c: string) => Object.keys(TEMPLATES[c]!)[0]!;
  dir = platformDir(
    `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
${charts.map((c) => `    new HelmChart(platform, '${c}', { repo: '${server.url}', chart: '${c}', version: '${pinned(c)}', namespace: '${c}', values: { replicas: 2 } });`).join('\n')}
  },
});
`,
    {
      files: {
        'groundwork.yaml':
          'name: test-platform\nentry: platform/main.ts\noverlays: overlays\npropose:\n  charts:\n    update: minor\n',
        'groundwork-charts.lock.yaml': [
          'apiVersion: groundwork.io/v1',
          'kind: ChartLock',
          'charts:',
          ...charts.flatMap((c) => [
            `  - repo: ${server.url}`,
            `    name: ${c}`,
            `    version: ${pinned(c)}`,
            `    url: ${server.url}/${c}-${pinned(c)}.tgz`,
            `    digest: sha256:${sha(archives.get(`${c}-${pinned(c)}.tgz`)!)}`,
          ]),
          '',
        ].join('\n'),
      },
    },
  );
});

afterAll(async () => {
  await server?.close();
});

describe('propose renders a chart version before proposing it', () => {
  it('proposes the newest version that renders; refuses a failing template and a non-deterministic one, saying why', async () => {
    const run = await groundwork(['propose', '--dry-run', '--dir', dir, '-o', 'json'], {
      env: { GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' },
      timeoutMs: 300_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const set = JSON.parse(run.stdout) as {
      proposals: { group: string; title: string; diff: string }[];
      refused: { subject: string; to: string; reason: string }[];
    };
    expect(set.proposals.map((p) => p.title)).toEqual(['chart good 1.0.0 → 1.0.1']);
    expect(set.proposals[0]!.diff).toContain(`+    digest: sha256:${sha(archives.get('good-1.0.1.tgz')!)}\n`);
    const reasons = Object.fromEntries(set.refused.map((r) => [`${r.subject}@${r.to}`, r.reason]));
    expect(Object.keys(reasons).sort()).toEqual([
      'chart broken@2.0.1',
      'chart good@1.0.2',
      'chart random@3.0.1',
    ]);
    expect(reasons['chart good@1.0.2']).toMatch(
      /^does not render with the platform's values \(overlay dev\): .*good 1\.0\.2 is broken on purpose/,
    );
    expect(reasons['chart broken@2.0.1']).toMatch(
      /^does not render with the platform's values \(overlay dev\): .*a value the platform does not set/,
    );
    expect(reasons['chart random@3.0.1']).toMatch(
      /^does not render deterministically \(overlay dev\): platform\/random \(chart\): renders differently each time .*random_random__ConfigMap at \/data\/password/,
    );
    // The checkout is not touched: the renders ran on a copy.
    expect(readFileSync(join(dir, 'platform/main.ts'), 'utf8')).not.toContain("version: '1.0.1'");
  }, 300_000);

  it('refuses an edit path outside the checkout before anything renders', async () => {
    let rendered = 0;
    const check = chartRenderCheck({
      root: dir,
      overlays: ['dev'],
      render: async () => {
        rendered++;
        return [];
      },
    });
    await expect(
      check({
        repo: server.url,
        name: 'good',
        version: '1.0.1',
        edits: [{ path: '../x', before: '', after: '' }],
      }),
    ).rejects.toThrow(/is not a repository path/);
    expect(rendered).toBe(0);
  });
});
