import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleChild } from '../../src/synth/child/bundle.js';
import { platformDir } from '../harness/platform-dir.js';

const platform = (
  name: string,
) => `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${name}', namespace: 'default' } });
  },
});
`;

describe('the synth child bundle cache', () => {
  it('reuses a bundle while no input file changes, and rebuilds when one does', async () => {
    const dir = platformDir(platform('first'));
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const first = await bundleChild(dir, 'platform/main.ts', { cacheDir });
    expect(first.cached).toBe(false);
    const again = await bundleChild(dir, 'platform/main.ts', { cacheDir });
    expect(again).toMatchObject({ cached: true, file: first.file });
    writeFileSync(join(dir, 'platform/main.ts'), platform('second-name'));
    const changed = await bundleChild(dir, 'platform/main.ts', { cacheDir });
    expect(changed.cached).toBe(false);
    // Only the bundle and its manifest are kept per key: no temporary files left behind.
    expect(readdirSync(cacheDir).sort()).toEqual([
      expect.stringMatching(/\.json$/),
      expect.stringMatching(/\.mjs$/),
    ]);
  });

  it('turns a syntax error into CompileFailed naming the file, line and column, and caches nothing', async () => {
    const dir = platformDir(`export default {\n  broken: ,\n};\n`);
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const err = await bundleChild(dir, 'platform/main.ts', { cacheDir }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CompileFailed' });
    expect(String(err)).toMatch(/platform\/main\.ts:2:\d+/);
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
