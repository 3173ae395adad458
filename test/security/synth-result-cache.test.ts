// Issue 36: the synth result cache is a new input path. An entry on disk is data: a tampered,
// forged or oversized one is refused, removed and rendered afresh, never trusted; and a render
// in one trust domain never reads what a render in another left (a pull request's render,
// `preview-head`, cannot plant results the agent reads), though the key no longer holds where the
// checkout is (the renderer sees every tree at `VIEW_TREE`).
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPlatform } from '../../src/render/render-platform.js';
import { resultCacheDir } from '../../src/render/result-cache/synth-result-cache.js';
import { VIEW_TREE } from '../../src/render/sandbox/render-view.js';
import type { TrustDomain } from '../../src/render/render-platform.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { platformDir } from '../harness/platform-dir.js';

const render = (dir: string, cacheDir: string, domain: TrustDomain, outputCapMb?: number) =>
  renderPlatform(dir, { overlay: 'dev', domain, cacheDir, ...(outputCapMb ? { outputCapMb } : {}) });

/** A rendered platform, its cache root and the one entry its first render left. */
async function cachedOnce(domain: TrustDomain = 'local', outputCapMb?: number) {
  const dir = platformDir(configMapPlatform(''));
  const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
  const [fresh] = await render(dir, cacheDir, domain, outputCapMb);
  const entries = resultCacheDir(cacheDir, domain);
  const names = readdirSync(entries);
  expect(names).toHaveLength(1);
  return { dir, cacheDir, fresh, file: join(entries, names[0]!) };
}

const data = (r: SynthResult | undefined) => (r!.manifests[0]!.object as { data?: unknown }).data;

describe('a synth result cache entry is data', () => {
  const tampered: [string, (text: string) => string][] = [
    // Another object's identity than its id says: decodeFrame's consistency check.
    ['an object whose id is not its own', (t) => t.replace('"name":"real"', '"name":"planted"')],
    ['a stage that is not a stage', (t) => t.replace(/"stage":"[^"]+"/, '"stage":"root"')],
    ['a key the schema does not know', (t) => t.replace('{"ok":true,', '{"ok":true,"exec":"rm -rf /",')],
    ['a body that is not JSON', (t) => `${t.slice(0, -10)}`],
    [
      'a header of another key',
      (t) => t.replace(/^groundwork-synth-results\/1 [0-9a-f]+/, 'groundwork-synth-results/1 0'),
    ],
    [
      'a failure in place of results',
      (t) => `${t.split('\n')[0]}\n{"ok":false,"error":{"code":"SynthCrashed","message":"x"}}`,
    ],
  ];
  it.each(tampered)(
    'refuses %s, removes it and renders afresh',
    async (_what, tamper) => {
      const { dir, cacheDir, fresh, file } = await cachedOnce();
      const original = readFileSync(file, 'utf8');
      const planted = tamper(original);
      expect(planted).not.toBe(original);
      writeFileSync(file, planted);
      const [again] = await render(dir, cacheDir, 'local');
      expect(again).toEqual(fresh);
      // The refused entry is gone and the fresh render's took its place.
      expect(readFileSync(file, 'utf8')).toBe(original);
    },
    60_000,
  );

  it('refuses an entry larger than the answer cap before reading it', async () => {
    // Rendered and asked again with a 1 MiB cap: the same key.
    const { dir, cacheDir, fresh, file } = await cachedOnce('local', 1);
    const original = readFileSync(file, 'utf8');
    // Well-formed but padded past the cap.
    const padded = original.replace(
      '"data":{"a":"b"}',
      `"data":{"a":"b","pad":"${'x'.repeat(1024 * 1024)}"}`,
    );
    expect(padded.length).toBeGreaterThan(1024 * 1024);
    writeFileSync(file, padded);
    const [again] = await render(dir, cacheDir, 'local', 1);
    expect(data(again)).toEqual({ a: 'b' });
    expect(again).toEqual(fresh);
    expect(readFileSync(file, 'utf8')).toBe(original);
  }, 60_000);

  it("never reads a pull request's entry in the agent's domain, even copied under the same name", async () => {
    const { dir, cacheDir, fresh, file } = await cachedOnce('preview-head');
    // A pull request's render left results that say something else ...
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"a":"b"', '"a":"planted"'));
    expect(data((await render(dir, cacheDir, 'preview-head'))[0])).toEqual({ a: 'planted' });
    // ... the agent renders the same checkout afresh, and a copy in its own directory is no key of its.
    const agentDir = resultCacheDir(cacheDir, 'agent');
    mkdirSync(agentDir, { recursive: true });
    copyFileSync(file, join(agentDir, readdirSync(resultCacheDir(cacheDir, 'preview-head'))[0]!));
    const [agent] = await render(dir, cacheDir, 'agent');
    expect(data(agent)).toEqual({ a: 'b' });
    expect(agent).toEqual(fresh);
  }, 60_000);
  it("never reads a pull request's entry for the same content checked out elsewhere by the agent", async () => {
    // The key holds no checkout path: the pull request's checkout and the agent's, in other
    // directories, of the same bytes, differ only by domain.
    const { dir, cacheDir, fresh, file } = await cachedOnce('preview-head');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"a":"b"', '"a":"planted"'));
    const agentCheckout = mkdtempSync(join(tmpdir(), 'gw-agent-checkout-'));
    cpSync(dir, agentCheckout, { recursive: true });
    // The pull request's domain answers its copy from its (tampered) entry: the key is the content's ...
    expect(data((await render(agentCheckout, cacheDir, 'preview-head'))[0])).toEqual({ a: 'planted' });
    // ... and the agent's, given that entry under the same name in its own directory, renders afresh.
    const agentDir = resultCacheDir(cacheDir, 'agent');
    mkdirSync(agentDir, { recursive: true });
    copyFileSync(file, join(agentDir, readdirSync(resultCacheDir(cacheDir, 'preview-head'))[0]!));
    const [agent] = await render(agentCheckout, cacheDir, 'agent');
    expect(data(agent)).toEqual({ a: 'b' });
    expect(agent).toEqual(fresh);
  }, 60_000);

  it('refuses a link to the path the renderer sees the tree at, before anything renders', async () => {
    const dir = platformDir(configMapPlatform(''));
    symlinkSync(`${VIEW_TREE}/platform`, join(dir, 'view'));
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-result-cache-'));
    await expect(render(dir, cacheDir, 'preview-head')).rejects.toMatchObject({
      code: 'SymlinkOutsideCheckout',
    });
    expect(() => readdirSync(resultCacheDir(cacheDir, 'preview-head'))).toThrow();
  }, 60_000);
});
