import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleChild } from '../../../src/render/sandbox/bundle.js';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { platformDir } from '../../harness/platform-dir.js';

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
    // One manifest per key, a bundle per content, no temporary files left behind.
    const files = readdirSync(cacheDir);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith('.mjs'))).toHaveLength(2);
    expect(files).toHaveLength(3);
  });

  it('gives concurrent synths of the same layout and other code each their own bundle', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const [a, b] = [platformDir(platform('code-of-a')), platformDir(platform('code-of-b'))];
    const [ba, bb] = await Promise.all([
      bundleChild(a, 'platform/main.ts', { cacheDir }),
      bundleChild(b, 'platform/main.ts', { cacheDir }),
    ]);
    const text = (f: string) => readFileSync(f, 'utf8');
    expect(text(ba.file)).toContain('code-of-a');
    expect(text(ba.file)).not.toContain('code-of-b');
    expect(text(bb.file)).toContain('code-of-b');
    expect(text(bb.file)).not.toContain('code-of-a');
  });

  it('turns a syntax error into CompileFailed naming the file, line and column, and caches nothing', async () => {
    const dir = platformDir(`export default {\n  broken: ,\n};\n`);
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const err = await bundleChild(dir, 'platform/main.ts', { cacheDir }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CompileFailed' });
    expect(String(err)).toMatch(/platform\/main\.ts:2:\d+/);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('reuses a bundle from another checkout of the same files (the next commit), not of different ones', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const first = realpathSync(platformDir(platform('same')));
    const built = await bundleChild(first, 'platform/main.ts', { cacheDir });
    expect(built).toMatchObject({ cached: false, builtIn: first });
    // The next commit: the same code, other overlay values, in a directory of its own.
    const next = realpathSync(mkdtempSync(join(tmpdir(), 'gw-checkout-')));
    cpSync(first, next, { recursive: true });
    writeFileSync(join(next, 'overlays/dev.yaml'), 'changed: true\n');
    expect(await bundleChild(next, 'platform/main.ts', { cacheDir })).toMatchObject({
      cached: true,
      file: built.file,
      builtIn: first,
    });
    // Other platform code: rebuilt.
    const edited = realpathSync(mkdtempSync(join(tmpdir(), 'gw-checkout-')));
    cpSync(first, edited, { recursive: true });
    writeFileSync(join(edited, 'platform/main.ts'), platform('other'));
    expect((await bundleChild(edited, 'platform/main.ts', { cacheDir })).cached).toBe(false);
    // A new package beside the code may change how imports resolve: rebuilt.
    const withPackage = realpathSync(mkdtempSync(join(tmpdir(), 'gw-checkout-')));
    cpSync(first, withPackage, { recursive: true });
    mkdirSync(join(withPackage, 'node_modules/zod'), { recursive: true });
    writeFileSync(join(withPackage, 'node_modules/zod/package.json'), '{"name":"zod"}');
    expect((await bundleChild(withPackage, 'platform/main.ts', { cacheDir })).cached).toBe(false);
  });

  it('never reuses a bundle whose platform code embeds its own location in another checkout', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-bundle-cache-'));
    const main = platform('here').replace(
      'build(scope) {',
      "build(scope) {\n    void new URL('./main.ts', import.meta.url);",
    );
    const first = realpathSync(platformDir(main));
    await bundleChild(first, 'platform/main.ts', { cacheDir });
    expect((await bundleChild(first, 'platform/main.ts', { cacheDir })).cached).toBe(true);
    const next = realpathSync(mkdtempSync(join(tmpdir(), 'gw-checkout-')));
    cpSync(first, next, { recursive: true });
    expect((await bundleChild(next, 'platform/main.ts', { cacheDir })).cached).toBe(false);
  });

  it('names the current checkout in the error of a bundle reused from another one', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-home-'));
    // An unhandled rejection at import: the child dies before any output, with a stack.
    const main = `${platform('boom')}\nvoid Promise.reject(new Error('boom'));\n`;
    const first = realpathSync(platformDir(main));
    const next = realpathSync(mkdtempSync(join(tmpdir(), 'gw-checkout-')));
    cpSync(first, next, { recursive: true });
    const synthIn = (dir: string) =>
      renderPlatform(dir, { domain: 'local', overlay: 'dev', cacheDir }).catch((e: unknown) => String(e));
    // The stack's frames name files of the checkout the bundle was built in (its entry, the platform).
    expect(await synthIn(first)).toMatch(new RegExp(`exit 1[^]*${first}/`));
    const reused = await synthIn(next);
    expect(reused).toMatch(new RegExp(`exit 1[^]*${next}/`));
    expect(reused).not.toContain(first);
  });
});
