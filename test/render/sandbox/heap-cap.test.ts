import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heapCapFor, parseMemoryLimit, readMemoryLimit } from '../../../src/render/sandbox/heap-cap.js';

const MiB = 1024 * 1024;

describe('heapCapFor: the synth child heap cap leaves the agent its share of the container limit', () => {
  it.each([
    ['no limit', undefined, 1024],
    ['256 MiB: below the agent reserve, the floor', 256 * MiB, 128],
    ['512 MiB', 512 * MiB, 128],
    ['768 MiB', 768 * MiB, 288],
    ['1 GiB (the agent Deployment)', 1024 * MiB, 480],
    ['1.5 GiB', 1536 * MiB, 864],
    ['2 GiB: the ceiling', 2048 * MiB, 1024],
    ['64 GiB', 64 * 1024 * MiB, 1024],
  ])('%s', (_what, limit, cap) => {
    expect(heapCapFor(limit)).toBe(cap);
  });

  it('keeps the child and the agent reserve under the limit at 1 GiB, with a quarter of the child budget outside its heap', () => {
    const cap = heapCapFor(1024 * MiB);
    expect(cap + 384 + Math.ceil(cap / 3)).toBeLessThanOrEqual(1024);
  });
});

describe('parseMemoryLimit', () => {
  it.each([
    ['1073741824\n', 1024 * MiB],
    ['max\n', undefined],
    ['9223372036854771712\n', undefined], // cgroup v1 without a limit
    ['', undefined],
    ['-1', undefined],
    ['0', undefined],
    ['12abc', undefined],
  ])('%j', (text, bytes) => {
    expect(parseMemoryLimit(text)).toBe(bytes);
  });
});

describe('readMemoryLimit', () => {
  const root = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cgroup-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it.each([
    ['cgroup v2', { 'memory.max': '1073741824\n' }, 1024 * MiB],
    ['cgroup v2 without a limit', { 'memory.max': 'max\n' }, undefined],
    ['cgroup v1', { 'memory/memory.limit_in_bytes': '536870912\n' }, 512 * MiB],
    ['cgroup v1 without a limit', { 'memory/memory.limit_in_bytes': '9223372036854771712\n' }, undefined],
    [
      'v2 before v1',
      { 'memory.max': '1073741824\n', 'memory/memory.limit_in_bytes': '536870912\n' },
      1024 * MiB,
    ],
    ['no cgroup files', {}, undefined],
  ])('%s', async (_what, files, bytes) => {
    expect(await readMemoryLimit({ root: root(files) })).toBe(bytes);
  });

  it('reads no limit from a directory that does not exist', async () => {
    expect(await readMemoryLimit({ root: '/nonexistent/cgroup' })).toBeUndefined();
  });
});
