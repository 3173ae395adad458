// groundwork propose --dry-run on a copy of the example platform (platform/, overlays/, catalogs/):
// its kepler pin, its cluster version target and a chart added from a chart repository on
// loopback. The catalog is the real kepler catalog with a 0.24.1 patch added; the update graph is
// written for this test (4.16.20 -> 4.16.21 recommended, -> 4.16.23 only over a conditional edge with a risk).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveChartRepository, type ChartRepositoryServer } from '../harness/chart-repository-server.js';
import { groundwork } from '../harness/cli.js';
import { useTools } from '../harness/tools.js';
import { keplerCatalogText, podinfoArchive, sha, stable416Graph } from '../propose/fixtures.js';

// propose renders the chart version it proposes (in the isolated renderer, with helm).
useTools('helm');

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const archives = new Map<string, Buffer>();
const chartWork = mkdtempSync(join(tmpdir(), 'gw-propose-chart-'));
/** A real chart archive podinfo-<version>.tgz (one ConfigMap), made once per version: propose renders the version it proposes. */
function archive(version: string): Buffer {
  const made = archives.get(version) ?? podinfoArchive(chartWork, version);
  archives.set(version, made);
  return made;
}

let server: ChartRepositoryServer;
let dir: string;

beforeAll(async () => {
  server = await serveChartRepository({
    'index.yaml': () =>
      [
        'apiVersion: v1',
        'entries:',
        '  podinfo:',
        ...['6.5.0', '6.5.1', '6.6.0'].flatMap((v) => [
          `    - name: podinfo`,
          `      version: ${v}`,
          `      created: "2026-10-0${v.endsWith('1') ? 2 : 1}T00:00:00Z"`,
          `      urls: [podinfo-${v}.tgz]`,
        ]),
        '',
      ].join('\n'),
    'podinfo-6.5.0.tgz': () => archive('6.5.0'),
    'podinfo-6.5.1.tgz': () => archive('6.5.1'),
    'podinfo-6.6.0.tgz': () => archive('6.6.0'),
  });
  dir = mkdtempSync(join(tmpdir(), 'gw-propose-'));
  for (const part of ['platform', 'overlays', 'catalogs'])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'groundwork.yaml'),
    `${readFileSync(join(ROOT, 'groundwork.yaml'), 'utf8')}graphs:\n  - graphs/stable-4.16.json\n`,
  );
  mkdirSync(join(dir, 'graphs'));
  writeFileSync(join(dir, 'graphs', 'stable-4.16.json'), stable416Graph());
  writeFileSync(
    join(dir, 'catalogs/community-operators/kepler-operator.yaml'),
    keplerCatalogText('- name: kepler-operator.v0.24.1\n  replaces: kepler-operator.v0.24.0\n', ['0.24.1']),
  );
  const main = readFileSync(join(dir, 'platform/main.ts'), 'utf8')
    .replace('  ClusterVersionTarget,\n', '  ClusterVersionTarget,\n  HelmChart,\n')
    .replace(
      '    new ClusterVersionTarget(',
      `    // podinfo from the team's chart repository; bumped by groundwork propose.\n    new HelmChart(platform, 'podinfo', { repo: '${server.url}', chart: 'podinfo', version: '6.5.0', namespace: 'podinfo' });\n\n    new ClusterVersionTarget(`,
    );
  writeFileSync(join(dir, 'platform/main.ts'), main);
  writeFileSync(
    join(dir, 'groundwork-charts.lock.yaml'),
    `# Written by groundwork chart lock|update: the exact chart archives synth renders.\napiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n  - repo: ${server.url}\n    name: podinfo\n    version: 6.5.0\n    url: ${server.url}/podinfo-6.5.0.tgz\n    digest: sha256:${sha(archive('6.5.0'))}\n`,
  );
});

afterAll(async () => {
  await server?.close();
});

describe('groundwork propose --dry-run on the example platform', () => {
  it('proposes the operator patch in its channel, the next z-stream and a chart patch, and refuses the risky release', async () => {
    const [json, text] = await Promise.all([
      groundwork(['propose', '--dry-run', '--dir', dir, '-o', 'json']),
      groundwork(['propose', '--dry-run', '--dir', dir]),
    ]);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const set = JSON.parse(json.stdout) as {
      proposals: {
        group: string;
        title: string;
        environment: string;
        edits: { path: string }[];
        notes: string[];
        diff: string;
      }[];
      refused: { subject: string; to: string; reason: string }[];
    };
    expect(set.proposals.map((p) => [p.group, p.title, p.environment, p.edits.map((e) => e.path)])).toEqual([
      ['operator-kepler-operator', 'kepler-operator 0.24.0 → 0.24.1 (alpha)', 'dev', ['overlays/dev.yaml']],
      ['openshift', 'OpenShift 4.16.20 → 4.16.21 (stable-4.16)', 'dev', ['overlays/dev.yaml']],
      [
        'chart-podinfo',
        'chart podinfo 6.5.0 → 6.5.1',
        'dev',
        ['groundwork-charts.lock.yaml', 'platform/main.ts'],
      ],
    ]);
    const [operator, openshift, chart] = set.proposals;
    expect(operator!.diff).toContain('-  pin: kepler-operator.v0.24.0\n+  pin: kepler-operator.v0.24.1\n');
    expect(openshift!.diff).toContain('-  version: 4.16.20\n+  version: 4.16.21\n');
    expect(chart!.diff).toContain(`-    version: 6.5.0\n-    url: ${server.url}/podinfo-6.5.0.tgz\n`);
    expect(chart!.diff).toContain(`+    digest: sha256:${sha(archive('6.5.1'))}\n`);
    expect(chart!.diff).toContain("version: '6.5.1', namespace: 'podinfo' });");
    expect(chart!.notes).toContain('newer, outside the policy (update: patch): 6.6.0');
    expect(set.refused).toEqual([
      {
        subject: 'openshift',
        kind: 'cluster-version',
        to: '4.16.23',
        reason: expect.stringContaining('conditional update with risk TestOnlyRisk'),
      },
    ]);
    // The files are not touched by a dry run.
    expect(readFileSync(join(dir, 'overlays/dev.yaml'), 'utf8')).toContain('pin: kepler-operator.v0.24.0');

    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'proposal openshift (environment dev): OpenShift 4.16.20 → 4.16.21 (stable-4.16)\n',
    );
    expect(text.stdout).toContain('--- a/overlays/dev.yaml\n+++ b/overlays/dev.yaml\n');
    expect(text.stdout).toMatch(
      /refused openshift → 4\.16\.23: reachable only over a conditional update with risk TestOnlyRisk \(Clusters on this test platform may lose their test\. https:\/\/issues\.redhat\.com\/browse\/OCPBUGS-0000\)/,
    );
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('3 proposal(s), 1 refused');
  }, 120_000);
});
