// Issue 31, Medium 7 and Low 15. Off-heap memory was not bounded: `Buffer.alloc` passed the synth
// child's heap cap (1540 MiB RSS with a 1024 MiB cap), so in a 1 GiB container the kernel's OOM
// killer fired instead of SynthOutOfMemory. And a 30 MB result frame of tiny values took the synth
// parent to 438 MiB RSS. Now every process of the renderer has RLIMIT_DATA, the platform child's
// resident memory is polled against its budget, and a frame's values are counted before it is
// parsed.
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/render/sandbox/protocol.js';
import { childSynthError } from '../harness/child-synth.js';
import { configMapPlatform } from '../harness/config-map-platform.js';
import { platformDir } from '../harness/platform-dir.js';

const platform = (top: string) => configMapPlatform(top);

describe('off-heap memory of platform code ends as SynthOutOfMemory', () => {
  it.each([
    // Touched pages: resident memory grows past the budget (polled) or the data limit refuses.
    ['Buffers it fills', 'const keep = []; for (;;) keep.push(Buffer.alloc(32 * 1024 * 1024, 1));'],
    // Untouched pages: little resident memory, but RLIMIT_DATA refuses the mapping.
    [
      'Buffers it never touches',
      'const keep = []; for (;;) keep.push(Buffer.allocUnsafeSlow(256 * 1024 * 1024));',
    ],
  ])('%s, with a 128 MiB heap cap (a 288 MiB budget)', async (_what, top) => {
    const err = await childSynthError(platformDir(platform(top)), { memoryMb: 128 });
    expect(err.code).toBe('SynthOutOfMemory');
    expect(err.fix).toMatch(/unbounded data/);
  });
});

describe('the trusted side parses no frame of millions of tiny values', () => {
  const NONCE = 'c'.repeat(32);
  const MiB = 1024 * 1024;

  it.each([
    ['30 MB of small numbers', () => `[${'0,'.repeat(15_000_000)}0]`],
    ['30 MB of empty objects', () => `[${'{},'.repeat(10_000_000)}{}]`],
  ])('%s: refused before parsing, and this process grows by less than the frame', (_what, make) => {
    const bytes = Buffer.from(`${NONCE}\n${make()}`);
    expect(bytes.length).toBeGreaterThan(30_000_000);
    const before = process.memoryUsage().rss;
    const decoded = decodeFrame(bytes, NONCE, { capBytes: 64 * MiB });
    const grew = process.memoryUsage().rss - before;
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.problem).toMatch(/refused before parsing/);
    // The old parser held the whole tree: 438 MiB for such a frame. Counting allocates nothing.
    expect(grew).toBeLessThan(16 * MiB);
  });
});
