import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedArchive, digestOf, storeArchive } from '../../../src/render/helm/chart-archive-cache.js';

// A preview renders base and head at once: both may store the same archive in one process.

let dir: string;
const saved = process.env.GROUNDWORK_CACHE_DIR;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gw-archive-cache-'));
  process.env.GROUNDWORK_CACHE_DIR = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.GROUNDWORK_CACHE_DIR;
  else process.env.GROUNDWORK_CACHE_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('storeArchive', () => {
  it('stores one archive from concurrent callers of one process (each writes its own temporary file)', async () => {
    const bytes = Buffer.from('a chart archive');
    const digest = digestOf(bytes);
    const paths = await Promise.all(Array.from({ length: 8 }, () => storeArchive(digest, bytes)));
    expect(new Set(paths).size).toBe(1);
    expect(readFileSync(paths[0]!)).toEqual(bytes);
    expect(await cachedArchive(digest)).toBe(paths[0]);
  });
});
