// Issue 36: the synth result cache gives exactly what a fresh render gives, and an unchanged
// checkout starts no renderer.
import fc from 'fast-check';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPlatform } from '../../../src/render/render-platform.js';
import { resultCacheDir } from '../../../src/render/result-cache/synth-result-cache.js';
import { VIEW_TREE } from '../../../src/render/sandbox/render-view.js';
import { platformDir } from '../../harness/platform-dir.js';

/**
 * A platform of one ConfigMap from code (named `name`, holding where the platform runs and where its
 * module is: a render that saw the checkout's own path would give it) and the manifests of
 * `manifests/app.yaml`.
 */
const platform = (
  name: string,
) => `import { ApiObject, Include, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(p, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${name}', namespace: 'default' }, data: { cwd: process.cwd(), url: import.meta.url } });
    new Include(p, 'app', { url: 'manifests/app.yaml' });
  },
});
`;
const manifests = (greeting: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-config, namespace: default}\ndata: {greeting: '${greeting}'}\n`;

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
/**
 * One edit of the platform's files; some change what it renders, some change nothing, and `move`
 * copies the checkout to another directory (the same content elsewhere: another clone, preview's
 * and the agent's fresh checkouts).
 */
const edit = fc.oneof(
  fc.constant('move' as const),
  word.map((w) => ({ file: 'platform/main.ts', text: platform(w) })),
  word.map((w) => ({ file: 'manifests/app.yaml', text: manifests(w) })),
  word.map((w) => ({ file: 'notes/readme.txt', text: w })),
  fc.constant({ file: 'manifests/app.yaml', text: manifests('hello') }),
  fc.constant(undefined),
);

const render = (dir: string, cacheDir: string, cache: boolean) =>
  renderPlatform(dir, { overlay: 'dev', domain: 'local', cacheDir, cache });

describe('the synth result cache', () => {
  it('gives what a fresh render gives, over random edits of a small platform', async () => {
    let dir = platformDir(platform('first'), { files: { 'manifests/app.yaml': manifests('hello') } });
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        for (const e of edits) {
          if (e === 'move') {
            const to = mkdtempSync(join(tmpdir(), 'gw-result-moved-'));
            cpSync(dir, to, { recursive: true });
            dir = to;
          } else if (e) {
            mkdirSync(join(dir, e.file, '..'), { recursive: true });
            writeFileSync(join(dir, e.file), e.text);
          }
          const cached = await render(dir, cacheDir, true);
          const fresh = await render(dir, cacheDir, false);
          expect(cached).toEqual(fresh);
        }
      }),
      { numRuns: 5 },
    );
  }, 600_000);

  it('answers an unchanged checkout from its entry, with no renderer, and renders again after an edit', async () => {
    const dir = platformDir(platform('first'), { files: { 'manifests/app.yaml': manifests('hello') } });
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    const [first] = await render(dir, cacheDir, true);
    const entries = resultCacheDir(cacheDir, 'local');
    const [entry] = readdirSync(entries);
    // A well-formed entry of other content: were a renderer started, 'hello' would come back.
    const file = join(entries, entry!);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll('"greeting":"hello"', '"greeting":"from-cache"'),
    );
    const [again] = await render(dir, cacheDir, true);
    const greeting = (r: typeof first) =>
      r!.manifests.find((m) => m.object.metadata.name === 'app-config')!.object.data as Record<
        string,
        string
      >;
    expect(greeting(first)).toEqual({ greeting: 'hello' });
    expect(greeting(again)).toEqual({ greeting: 'from-cache' });
    writeFileSync(join(dir, 'manifests/app.yaml'), manifests('edited'));
    const [edited] = await render(dir, cacheDir, true);
    expect(greeting(edited)).toEqual({ greeting: 'edited' });
    expect(readdirSync(entries)).toHaveLength(2);
  }, 120_000);

  it("answers the same content in another directory from the first one's entry: the renderer saw neither path", async () => {
    const first = platformDir(platform('first'), { files: { 'manifests/app.yaml': manifests('hello') } });
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    const [fresh] = await render(first, cacheDir, true);
    const code = fresh!.manifests.find((m) => m.object.metadata.name === 'first')!.object.data;
    // Where the platform ran and where its module was: the view's path, not the checkout's.
    expect(code).toEqual({ cwd: VIEW_TREE, url: `file://${VIEW_TREE}/platform/main.ts` });
    const entries = resultCacheDir(cacheDir, 'local');
    const [entry] = readdirSync(entries);
    const file = join(entries, entry!);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll('"greeting":"hello"', '"greeting":"from-cache"'),
    );
    const copy = mkdtempSync(join(tmpdir(), 'gw-result-moved-'));
    cpSync(first, copy, { recursive: true });
    const [again] = await render(copy, cacheDir, true);
    const greeting = again!.manifests.find((m) => m.object.metadata.name === 'app-config')!.object.data;
    expect(greeting).toEqual({ greeting: 'from-cache' });
    expect(readdirSync(entries)).toEqual([entry]);
  }, 120_000);

  it('renders a tree that names its own path where it is, and keys it by that path', async () => {
    const dir = platformDir(platform('first'), { files: { 'manifests/app.yaml': manifests('hello') } });
    writeFileSync(join(dir, 'notes.txt'), `checked out at ${dir}\n`);
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    const [own] = await render(dir, cacheDir, true);
    expect(own!.manifests.find((m) => m.object.metadata.name === 'first')!.object.data).toEqual({
      cwd: dir,
      url: `file://${dir}/platform/main.ts`,
    });
    // The same bytes elsewhere name another directory than their own: seen at the view's path, under
    // another key (had the copy been answered from the first entry, its cwd would be `dir`).
    const copy = mkdtempSync(join(tmpdir(), 'gw-result-moved-'));
    cpSync(dir, copy, { recursive: true });
    const [moved] = await render(copy, cacheDir, true);
    expect(moved).toEqual(await render(copy, cacheDir, false).then((r) => r[0]));
    expect(moved!.manifests.find((m) => m.object.metadata.name === 'first')!.object.data).toEqual({
      cwd: VIEW_TREE,
      url: `file://${VIEW_TREE}/platform/main.ts`,
    });
  }, 120_000);

  it('keys by the overlay, the domain and a library root', async () => {
    const dir = platformDir(platform('first'), {
      files: { 'manifests/app.yaml': manifests('hello'), 'overlays/prod.yaml': '{}\n' },
    });
    const lib = mkdtempSync(join(tmpdir(), 'gw-result-lib-'));
    mkdirSync(join(lib, 'node_modules', 'some-lib'), { recursive: true });
    writeFileSync(join(lib, 'node_modules', 'some-lib', 'index.js'), 'export const a = 1;\n');
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    const count = (domain: string) => {
      try {
        return readdirSync(resultCacheDir(cacheDir, domain)).length;
      } catch {
        return 0;
      }
    };
    const go = (overlay: string, domain: 'local' | 'agent') =>
      renderPlatform(dir, { overlay, domain, cacheDir, libraryRoots: [lib] });
    await go('dev', 'local');
    await go('prod', 'local');
    expect(count('local')).toBe(2);
    await go('dev', 'agent');
    expect([count('local'), count('agent')]).toEqual([2, 1]);
    writeFileSync(join(lib, 'node_modules', 'some-lib', 'index.js'), 'export const a = 22;\n');
    await go('dev', 'agent');
    expect(count('agent')).toBe(2);
  }, 120_000);
});
