// Issue 37, done when: `groundwork propose` (the real CLI, without --dry-run) on a copy of the example
// platform opens the pull requests a platform engineer would have opened by hand on a real Gitea: the
// kepler patch in its channel, the next z-stream, a chart patch (a real chart from a loopback
// repository), each with the synth preview, and refuses the release the graph offers only with a risk.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveChartRepository, type ChartRepositoryServer } from '../harness/chart-repository-server.js';
import { groundwork } from '../harness/cli.js';
import { eventually } from '../harness/cluster.js';
import { sharedGitea, type Gitea } from '../harness/gitea.js';
import { createGitRepo, type GitRepo } from '../harness/git-repo.js';
import { TOOL_BUILD_TIMEOUT_MS } from '../harness/tools.js';
import { keplerCatalogText, podinfoArchive, sha, stable416Graph } from '../propose/fixtures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let gitea: Gitea;
let charts: ChartRepositoryServer;
let root: string;
let work: GitRepo;
let remote: Awaited<ReturnType<Gitea['createRepo']>>;

beforeAll(async () => {
  gitea = await sharedGitea();
  root = mkdtempSync(join(tmpdir(), 'gw-propose-cli-'));
  const archives = Object.fromEntries(['6.5.0', '6.5.1', '6.6.0'].map((v) => [v, podinfoArchive(root, v)]));
  charts = await serveChartRepository({
    'index.yaml': () =>
      [
        'apiVersion: v1',
        'entries:',
        '  podinfo:',
        ...Object.keys(archives).flatMap((v) => [
          '    - name: podinfo',
          `      version: ${v}`,
          `      created: "2026-10-0${v.endsWith('1') ? 2 : 1}T00:00:00Z"`,
          `      urls: [podinfo-${v}.tgz]`,
        ]),
        '',
      ].join('\n'),
    ...Object.fromEntries(Object.entries(archives).map(([v, bytes]) => [`podinfo-${v}.tgz`, () => bytes])),
  });
  const name = `propose-cli-${Date.now().toString(36)}`;
  remote = await gitea.createRepo(name);
  work = createGitRepo({ root, name });
  const dir = work.workDir;
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
      `    new HelmChart(platform, 'podinfo', { repo: '${charts.url}', chart: 'podinfo', version: '6.5.0', namespace: 'podinfo' });\n\n    new ClusterVersionTarget(`,
    );
  writeFileSync(join(dir, 'platform/main.ts'), main);
  writeFileSync(
    join(dir, 'groundwork-charts.lock.yaml'),
    `apiVersion: groundwork.io/v1\nkind: ChartLock\ncharts:\n  - repo: ${charts.url}\n    name: podinfo\n    version: 6.5.0\n    url: ${charts.url}/podinfo-6.5.0.tgz\n    digest: sha256:${sha(archives['6.5.0']!)}\n`,
  );
  work.commit('the example platform');
  await work.push({ remote: remote.pushUrl });
  work.git('remote', 'set-url', 'origin', remote.cloneUrl); // the CLI reads the checkout's origin
  // Gitea marks a repository created empty as filled by a hook after the push; until then its
  // pull-request API answers 404.
  await eventually(
    async () => {
      const res = await fetch(`${gitea.apiUrl}/repos/${remote.owner}/${remote.name}`, {
        headers: { Authorization: `token ${gitea.token}` },
      });
      return res.ok && z.looseObject({ empty: z.boolean() }).parse(await res.json()).empty === false
        ? true
        : undefined;
    },
    30_000,
    'gitea to see the pushed repository',
  );
}, TOOL_BUILD_TIMEOUT_MS);

afterAll(async () => {
  await charts?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const pullSchema = z.array(
  z.looseObject({ title: z.string(), body: z.string(), head: z.looseObject({ ref: z.string() }) }),
);

describe('groundwork propose on the example platform, published on a real Gitea', () => {
  it('opens one pull request per group with its preview and prints the refusal; the token shows nowhere', async () => {
    const run = await groundwork(['propose', '--dir', work.workDir, '--forge', 'gitea'], {
      env: { GROUNDWORK_FORGE_TOKEN: gitea.token, GROUNDWORK_ALLOW_LOOPBACK_URLS: '1' },
      timeoutMs: 300_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^opened +groundwork\/propose\/operator-kepler-operator +http/m);
    expect(run.stdout).toMatch(/^opened +groundwork\/propose\/openshift +http/m);
    expect(run.stdout).toMatch(/^opened +groundwork\/propose\/chart-podinfo +http/m);
    expect(run.stdout).toMatch(/^refused +openshift 4\.16\.23: .*TestOnlyRisk/m);
    expect(`${run.stdout}${run.stderr}`).not.toContain(gitea.token);

    const res = await fetch(`${gitea.apiUrl}/repos/${remote.owner}/${remote.name}/pulls?state=open`, {
      headers: { Authorization: `token ${gitea.token}` },
    });
    const pulls = pullSchema.parse(await res.json());
    expect(pulls.map((p) => p.title).sort()).toEqual([
      'OpenShift 4.16.20 → 4.16.21 (stable-4.16)',
      'chart podinfo 6.5.0 → 6.5.1',
      'kepler-operator 0.24.0 → 0.24.1 (alpha)',
    ]);
    for (const p of pulls) {
      expect(p.body, p.title).toContain('## Groundwork preview');
      expect(p.body, p.title).not.toContain('fails synth');
    }
    const chart = pulls.find((p) => p.head.ref === 'groundwork/propose/chart-podinfo')!;
    expect(chart.body).toContain('podinfo-version');
    const openshift = pulls.find((p) => p.head.ref === 'groundwork/propose/openshift')!;
    expect(openshift.body).toContain('4.16.21');
  }, 300_000);
});
