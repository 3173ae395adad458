import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinedRealPath, readBoundedFile, readConfinedFile } from '../../src/core/confined-file.js';

function checkout(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'gw-confined-'));
  const root = join(base, 'repo');
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'in.txt'), 'inside\n');
  writeFileSync(join(base, 'outside.txt'), 'outside\n');
  return { root, outside: join(base, 'outside.txt') };
}

const failure = (p: Promise<unknown>) => p.then(() => undefined).catch((e: unknown) => e);

describe('confined reads', () => {
  it('reads a file of the checkout, also through a link inside it, by its real path', async () => {
    const { root } = checkout();
    symlinkSync('data/in.txt', join(root, 'alias.txt'));
    expect(await confinedRealPath({ root, path: 'alias.txt' })).toBe(
      realpathSync(join(root, 'data', 'in.txt')),
    );
    expect(await readConfinedFile({ root, path: 'alias.txt', maxBytes: 100, what: 'file' })).toBe('inside\n');
  });

  it('refuses `..` and links that lead out, naming the path as given', async () => {
    const { root, outside } = checkout();
    symlinkSync(outside, join(root, 'data', 'link.txt'));
    for (const path of ['../outside.txt', 'data/link.txt', outside]) {
      const err = await failure(readConfinedFile({ root, path, maxBytes: 100, what: 'file' }));
      expect(err).toMatchObject({ code: 'PathOutsideCheckout', subject: path });
      expect(String(err)).not.toContain('outside\n');
    }
  });

  it('refuses a file past its bound, a directory and a FIFO (without waiting for a writer)', async () => {
    const { root } = checkout();
    const big = join(root, 'big.txt');
    writeFileSync(big, 'x'.repeat(2048));
    expect(await failure(readBoundedFile(big, { maxBytes: 1024, what: 'graph' }))).toMatchObject({
      code: 'FileTooLarge',
      message: `${big}: the graph is 2 KiB; Groundwork reads at most 1 KiB from one`,
    });
    expect(await failure(readBoundedFile(root, { maxBytes: 1024, what: 'graph' }))).toMatchObject({
      code: 'NotARegularFile',
    });
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect(
      await failure(readBoundedFile(join(root, 'fifo'), { maxBytes: 1024, what: 'graph' })),
    ).toMatchObject({
      code: 'NotARegularFile',
    });
  });
});
