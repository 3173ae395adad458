import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryDigest } from '../../../src/render/recorded/render-cache.js';

/** A checkout with `base/` (a file and a link to `common/x.yaml`) and `common/x.yaml`. */
function checkout(): { root: string; base: string } {
  const root = mkdtempSync(join(tmpdir(), 'gw-digest-'));
  mkdirSync(join(root, 'base'));
  mkdirSync(join(root, 'common'));
  writeFileSync(join(root, 'base/a.yaml'), 'a: 1\n');
  writeFileSync(join(root, 'common/x.yaml'), 'x: 1\n');
  symlinkSync('../common/x.yaml', join(root, 'base/x.yaml'));
  return { root, base: join(root, 'base') };
}

describe('directoryDigest', () => {
  it('hashes a link by its name by default (the helm chart digest, unchanged)', async () => {
    const { root, base } = checkout();
    const before = await directoryDigest(base);
    writeFileSync(join(root, 'common/x.yaml'), 'x: 2\n');
    expect(await directoryDigest(base)).toBe(before);
  });

  it('with links.within, hashes a link by its target: editing the target changes the digest', async () => {
    const { root, base } = checkout();
    const before = await directoryDigest(base, { links: { within: root } });
    expect(before).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await directoryDigest(base, { links: { within: root } })).toBe(before);
    writeFileSync(join(root, 'common/x.yaml'), 'x: 2\n');
    expect(await directoryDigest(base, { links: { within: root } })).not.toBe(before);
  });

  it('with links.within, gives no digest (not cached) for a link out, a dangling link or a link to a directory', async () => {
    for (const make of [
      (root: string) => symlinkSync('/etc/hostname', join(root, 'base/out.yaml')),
      (root: string) => symlinkSync('../nowhere.yaml', join(root, 'base/dangling.yaml')),
      (root: string) => symlinkSync('../common', join(root, 'base/dir')),
      (root: string) => symlinkSync('..', join(root, 'base/up')),
    ]) {
      const { root, base } = checkout();
      make(root);
      expect(await directoryDigest(base, { links: { within: root } })).toBeUndefined();
      rmSync(root, { recursive: true });
    }
  });
});
