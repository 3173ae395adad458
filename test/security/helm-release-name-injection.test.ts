// Issue 31, High 1: platform code rewrote its HelmChart's recorded request (the release name) to
// `--post-renderer=<script>`; the synth parent passed it to `helm template` as a positional, helm
// read it as a flag and ran the script with the parent's identity. The argv builder now puts
// positionals after `--` and refuses any release name helm's own rule refuses, before helm runs.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRecorded } from '../../src/render/recorded/render-recorded.js';
import type { HelmRequest } from '../../src/render/recorded/render-request.js';
import { SynthValidationError } from '../../src/render/synth/validation.js';
import { groundwork } from '../harness/cli.js';
import { platformDir } from '../harness/platform-dir.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('helm');

/** A platform with one local chart whose recorded release name platform code sets to `releaseName`. */
function rewritingPlatform(releaseName: (dir: string) => string): { dir: string; marker: string } {
  // The checkout's path is known only once it exists: the platform reads its release name from a
  // file of the checkout (the renderer runs with a stripped environment, and reads the checkout).
  const dir = platformDir(`import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
import { readFileSync } from 'node:fs';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    const chart = new HelmChart(platform, 'web', { chart: 'charts/web', namespace: 'web' });
    // The request the parent renders, reached the way any platform code can reach it.
    const request = (chart as unknown as Record<symbol, { releaseName: string }>)[Symbol.for('groundwork.RenderRequest')]!;
    request.releaseName = readFileSync(new URL('../release.txt', import.meta.url), 'utf8');
  },
});
`);
  mkdirSync(join(dir, 'charts/web/templates'), { recursive: true });
  writeFileSync(join(dir, 'charts/web/Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  writeFileSync(
    join(dir, 'charts/web/templates/cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  a: "1"\n',
  );
  const marker = join(dir, '..', `${dir.split('/').pop()}-evil-ran`);
  // What the attacker's script does: leave a mark, then pass helm's output through.
  writeFileSync(join(dir, 'evil.sh'), `#!/bin/sh\ntouch '${marker}'\ncat\n`);
  chmodSync(join(dir, 'evil.sh'), 0o755);
  writeFileSync(join(dir, 'release.txt'), releaseName(dir));
  return { dir, marker };
}

describe('a recorded release name that is a helm flag', () => {
  it.each([
    ['--post-renderer=<checkout>/evil.sh', (dir: string) => `--post-renderer=${dir}/evil.sh`],
    ['--post-renderer=./evil.sh', () => '--post-renderer=./evil.sh'],
    ['--set-file=leak=/etc/hostname', () => '--set-file=leak=/etc/hostname'],
  ])('%s is refused at the construct path, and the script never runs', async (_what, release) => {
    const { dir, marker } = rewritingPlatform(release);
    const result = await groundwork(['synth', '--dir', dir], { cwd: dir });
    expect(existsSync(marker), 'evil.sh ran').toBe(false);
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stderr).toContain('platform/web');
    expect(result.stderr).toContain('releaseName');
    expect(result.stderr).toContain('helm was not run');
    // The refusal quotes the forged value: it is the one the platform wrote, not an empty one.
    expect(result.stderr).toContain(release(dir).slice(0, 20));
    expect(result.stdout).not.toContain('kind: ConfigMap');
  });

  it('the same platform with a valid release name renders (the test can tell the two apart)', async () => {
    const { dir, marker } = rewritingPlatform(() => 'web');
    const result = await groundwork(['synth', '--dir', dir], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('kind: ConfigMap');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the parent renders a forged request without running anything it names', () => {
  it('renderRecorded refuses the release name at the construct path; helm never runs the script', async () => {
    const { dir, marker } = rewritingPlatform(() => '');
    const request: HelmRequest = {
      engine: 'helm',
      path: 'platform/web',
      chart: 'charts/web',
      releaseName: `--post-renderer=${dir}/evil.sh`,
      namespace: 'web',
      values: {},
      valuesFiles: [],
      includeCrds: false,
      includeTests: false,
      apiVersions: [],
      ignoreDifferences: [],
    };
    const helm = await toolPath('helm');
    const err = await renderRecorded(
      [{ platform: 'p', overlay: 'dev', manifests: [], hash: '', warnings: [], renders: [request] }],
      { dir, tools: { helm: async () => helm, kustomize: async () => 'kustomize' }, cacheDir: false },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SynthValidationError);
    const [issue] = (err as SynthValidationError).issues;
    expect(issue).toMatchObject({ path: 'platform/web', field: 'releaseName', severity: 'error' });
    expect(issue!.message).toContain('helm was not run');
    expect(existsSync(marker), 'evil.sh ran').toBe(false);
  });
});
