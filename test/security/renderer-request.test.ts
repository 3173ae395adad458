// Issue 31: a render request is a new input path of the renderer pod (anyone the NetworkPolicy
// lets in, or any local user on a laptop, can send one). Its paths never leave the tree it is
// written into, and a link never leads out of it or is written through.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { remoteRequestSchema } from '../../src/render/remote/remote-request.js';
import { writeTree } from '../../src/render/remote/tree-files.js';

describe('a hostile render request', () => {
  it('refuses paths with .. segments and absolute paths in the schema', () => {
    const entry = (path: string) => ({ kind: 'file', path, exec: false, data: '' });
    for (const path of ['../x', 'a/../../x', '/etc/passwd', 'a//b', './a', 'a\\..\\b'])
      expect(remoteRequestSchema.shape.tree.safeParse([entry(path)]).success).toBe(false);
    expect(remoteRequestSchema.shape.tree.safeParse([entry('a/b.ts')]).success).toBe(true);
  });

  it('never writes a link leading out of its tree, nor through a link', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'gw-tree-')));
    const fresh = () => {
      const dir = join(root, String(Math.random()));
      mkdirSync(dir);
      return dir;
    };
    const up = fresh();
    const e1 = await writeTree(up, [{ kind: 'link', path: 'a/up', target: '../..' }]).catch(
      (e: unknown) => e,
    );
    expect(hasCode(e1, 'SymlinkOutsideCheckout')).toBe(true);
    // `a -> .` keeps inside lexically, but `a/l -> ..` resolved through it would leave the tree.
    const through = fresh();
    symlinkSync('.', join(through, 'a'));
    const e2 = await writeTree(through, [{ kind: 'link', path: 'a/l', target: '..' }]).catch(
      (e: unknown) => e,
    );
    expect(hasCode(e2, 'SymlinkOutsideCheckout')).toBe(true);
    // A file through that link, and a link that stays inside, are written; nothing lands outside.
    const fine = fresh();
    await writeTree(fine, [
      { kind: 'file', path: 'pkg/bin.js', exec: true, data: Buffer.from('x').toString('base64') },
      { kind: 'link', path: '.bin/tool', target: '../pkg/bin.js' },
    ]);
    expect(realpathSync(join(fine, '.bin/tool'))).toBe(join(fine, 'pkg/bin.js'));
    expect(readdirSync(root).length).toBe(3);
  });
});
