import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWorkTree } from '../../src/source/local-revision.js';

function repo(): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-revision-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\nout/\n');
  writeFileSync(join(dir, 'groundwork.yaml'), 'name: p\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  return { dir, git };
}

describe('describeWorkTree', () => {
  it('labels a clean work tree with branch and commit', async () => {
    const { dir, git } = repo();
    expect(await describeWorkTree(dir)).toBe(`main@sha1:${git('rev-parse', 'HEAD')}`);
  });

  it.each([
    ['a modified file', (d: string) => writeFileSync(join(d, 'groundwork.yaml'), 'name: q\n')],
    ['an untracked file', (d: string) => writeFileSync(join(d, 'new.yaml'), 'x: 1\n')],
  ])('marks %s +dirty, as git describe --dirty does', async (_, change) => {
    const { dir, git } = repo();
    change(dir);
    expect(await describeWorkTree(dir)).toBe(`main@sha1:${git('rev-parse', 'HEAD')}+dirty`);
  });

  it('ignores ignored files (node_modules, build output)', async () => {
    const { dir, git } = repo();
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), '');
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'a.yaml'), '');
    expect(await describeWorkTree(dir)).toBe(`main@sha1:${git('rev-parse', 'HEAD')}`);
  });

  it('says local outside a git repository', async () => {
    expect(await describeWorkTree(mkdtempSync(join(tmpdir(), 'gw-norepo-')))).toBe('local');
  });
});
