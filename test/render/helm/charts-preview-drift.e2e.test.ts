// A chart in the repository through the CLI against the real local control plane: the preview of
// a chart version bump between two commits, and drift of an object the chart rendered.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { useCluster } from '../../harness/cluster.js';
import { runGit } from '../../harness/git-repo.js';
import { platformDir } from '../../harness/platform-dir.js';
import { useTools } from '../../harness/tools.js';

useTools('helm');

const cluster = useCluster({ namespacePrefix: 'gw-chart-pd' });

const chartYaml = (version: string) => `apiVersion: v2\nname: hello\nversion: ${version}\n`;

describe('a chart of the repository in preview and drift', () => {
  it('preview across a Chart.yaml version bump names the chart and construct (ChartVersion); drift reports an out-of-band edit of a chart object', async () => {
    const ns = cluster.namespace;
    const dir = platformDir(
      `import { definePlatform, HelmChart, Platform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'hello', { chart: 'charts/hello', releaseName: 'hello', namespace: '${ns}' });
  },
});
`,
      {
        name: `chart-pd-${ns.slice(-6)}`,
        files: {
          'overlays/dev.yaml': '{}\n',
          'charts/hello/Chart.yaml': chartYaml('1.0.0'),
          'charts/hello/templates/cm.yaml':
            'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-settings\ndata:\n  version: {{ .Chart.Version | quote }}\n  mode: calm\n',
        },
      },
    );
    runGit(dir, ['init', '-q']);
    runGit(dir, ['add', '.']);
    runGit(dir, ['commit', '-q', '-m', 'hello 1.0.0']);
    const env = { KUBECONFIG: cluster.kubeconfig };

    const apply = await groundwork(['apply', '--no-wait', '--dir', dir], { env, cwd: dir });
    expect(apply.stdout + apply.stderr).not.toMatch(/✖/);
    expect(apply.code).toBe(0);
    const cm = `/api/v1/namespaces/${ns}/configmaps/hello-settings`;
    expect(((await cluster.client.request('GET', cm)) as { data: Record<string, string> }).data).toEqual({
      version: '1.0.0',
      mode: 'calm',
    });

    const clean = await groundwork(['drift', '--dir', dir], { env, cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    await cluster.client.request('PATCH', cm, {
      body: { data: { mode: 'by-hand' } },
      contentType: 'application/merge-patch+json',
      query: { fieldManager: 'kubectl-edit' },
    });
    const drift = await groundwork(['drift', '--dir', dir], { env, cwd: dir });
    expect(drift.code, drift.stdout + drift.stderr).toBe(1);
    expect(drift.stdout).toContain('hello-settings');
    expect(drift.stdout).toContain('kubectl-edit');

    writeFileSync(join(dir, 'charts/hello/Chart.yaml'), chartYaml('2.0.0'));
    runGit(dir, ['commit', '-q', '-am', 'hello 2.0.0']);
    const preview = await groundwork(
      ['preview', '--base', 'HEAD~1', '--head', 'HEAD', '--dir', dir, '-o', 'json'],
      {
        cwd: dir,
      },
    );
    expect(preview.code, preview.stderr).toBe(0);
    const notes = (
      JSON.parse(preview.stdout) as {
        overlays: { risks: { code: string; severity: string; subject: string; message: string }[] }[];
      }
    ).overlays.flatMap((o) => o.risks);
    expect(notes).toEqual([
      expect.objectContaining({
        code: 'ChartVersion',
        severity: 'high',
        subject: 'chart platform/hello',
        message: expect.stringMatching(
          /^chart charts\/hello goes from 1\.0\.0 to 2\.0\.0 \(a new major version.*; 1 object of it changes$/,
        ),
      }),
    ]);
  }, 240_000);
});
