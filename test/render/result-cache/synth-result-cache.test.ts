// Issue 36: the synth result cache on disk: bounded, whole entries only under concurrent writers,
// and a key of its own per entry.
import { mkdtempSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RESULT_CACHE_ENTRIES,
  readCachedResults,
  storeResults,
} from '../../../src/render/result-cache/synth-result-cache.js';
import type { SynthResult } from '../../../src/render/synth/synthesize.js';

/** A result of no objects for overlay `dev` of platform `p`, as a renderer may answer. */
const result = (n: number): SynthResult => ({
  platform: 'p',
  overlay: 'dev',
  manifests: [],
  hash: `sha256:${String(n).repeat(64)}`,
  warnings: [],
});

const expect_ = { overlays: ['dev'], platform: 'p', capBytes: 1024 * 1024 };

describe('the synth result cache on disk', () => {
  it('keeps the newest entries only, and leaves no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-results-'));
    const stale = join(dir, 'old.1.abc.tmp');
    writeFileSync(stale, 'left by a run that died');
    utimesSync(stale, new Date(0), new Date(0));
    for (let i = 0; i < RESULT_CACHE_ENTRIES + 5; i++) {
      await storeResults(dir, `key${String(i).padStart(3, '0')}`, []);
      // Distinct modification times: eviction goes by them.
      const at = new Date(Date.now() - (RESULT_CACHE_ENTRIES + 5 - i) * 1000);
      utimesSync(join(dir, `key${String(i).padStart(3, '0')}.json`), at, at);
    }
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(RESULT_CACHE_ENTRIES);
    expect(files[0]).toBe('key005.json');
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('gives concurrent writers of one key a whole entry each, never a torn one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-results-'));
    const writers = Array.from({ length: 8 }, (_, i) => storeResults(dir, 'same', [result(i)]));
    const readers = Array.from({ length: 8 }, () => readCachedResults(dir, 'same', expect_));
    await Promise.all(writers);
    const seen = await Promise.all(readers);
    for (const s of seen) expect(s === undefined || s.length === 1).toBe(true);
    const [last] = (await readCachedResults(dir, 'same', expect_))!;
    expect(last!.hash).toMatch(/^sha256:([0-7])\1{63}$/);
    expect(readdirSync(dir)).toEqual(['same.json']);
  });

  it("refuses an entry filed under another key's name", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-results-'));
    await storeResults(dir, 'one', [result(1)]);
    expect(await readCachedResults(dir, 'one', expect_)).toEqual([result(1)]);
    renameSync(join(dir, 'one.json'), join(dir, 'two.json'));
    expect(await readCachedResults(dir, 'one', expect_)).toBeUndefined();
    expect(await readCachedResults(dir, 'two', expect_)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });
});
