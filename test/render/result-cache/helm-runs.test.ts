// Issue 36: a platform with Helm charts makes no helm run when nothing it reads has changed. The
// agent's no-op cycle renders nothing (the last good revision is its candidate); a checkout of the
// same revision elsewhere (the agent restarted, its next checkout of the same content) is answered
// from the result cache: no renderer starts, so no helm runs.
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { platformDir } from '../../harness/platform-dir.js';
import { toolPath } from '../../harness/tools.js';

const CHARTS = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

const main = `import { definePlatform, Platform, HelmChart, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new HelmChart(platform, 'sub', { chart: 'charts/subchart', namespace: 'demo' });
  },
});
`;

/**
 * The real helm behind a script that counts its runs, both in `dir` (the agent domain's cache,
 * which its renderer can write, so the count survives the renderer's own root).
 */
async function countingHelm(dir: string): Promise<{ helm: string; runs: () => number }> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(await toolPath('helm'), join(dir, 'helm-real'));
  chmodSync(join(dir, 'helm-real'), 0o755);
  const log = join(dir, 'runs');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'helm'),
    `#!/bin/sh\necho run >> '${log}'\nexec '${join(dir, 'helm-real')}' "$@"\n`,
  );
  chmodSync(join(dir, 'helm'), 0o755);
  return {
    helm: join(dir, 'helm'),
    runs: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length,
  };
}

describe('a platform with Helm charts, unchanged', () => {
  it('runs helm for its first render only: the same revision checked out again renders from the result cache', async () => {
    const first = platformDir(main);
    cpSync(CHARTS, join(first, 'charts'), { recursive: true });
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-helm-runs-'));
    const { helm, runs } = await countingHelm(join(cacheDir, 'render', 'agent', 'counting-helm'));
    const render = (dir: string) =>
      renderPlatform(dir, { overlay: 'dev', domain: 'agent', cacheDir, tools: { helm } });
    const [fresh] = await render(first);
    expect(fresh!.manifests.map((m) => m.object.kind)).toContain('Service');
    const ran = runs();
    expect(ran).toBeGreaterThan(0);
    // The agent's next checkout of the same revision, in another directory.
    const again = mkdtempSync(join(tmpdir(), 'gw-helm-runs-checkout-'));
    cpSync(first, again, { recursive: true });
    const [cached] = await render(again);
    expect(runs()).toBe(ran);
    expect(cached).toEqual(fresh);
  }, 180_000);
});
