import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRevision } from '../../src/source/read-revision.js';
import { git } from './git.js';

let root: string;
let repo: string;
let first: string;
let second: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gw-read-revision-'));
  repo = join(root, 'repo');
  mkdirSync(join(repo, 'platform'), { recursive: true });
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'groundwork.yaml'), 'name: one\n');
  writeFileSync(join(repo, 'platform', 'main.ts'), 'export default 1;\n');
  writeFileSync(join(repo, 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(repo, 'run.sh'), 0o755);
  symlinkSync('platform/main.ts', join(repo, 'link.ts'));
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  first = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'tag', '-a', 'v1', '-m', 'release one');
  writeFileSync(join(repo, 'groundwork.yaml'), 'name: two\n');
  writeFileSync(join(repo, 'package.json'), '{"name":"platform","type":"module"}\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'second');
  second = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'branch', 'feature', first);
  // A dirty checkout: a modified tracked file, a staged change and an untracked file.
  writeFileSync(join(repo, 'groundwork.yaml'), 'name: uncommitted\n');
  writeFileSync(join(repo, 'staged.txt'), 'staged\n');
  git(repo, 'add', 'staged.txt');
  writeFileSync(join(repo, 'untracked.txt'), 'untracked\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const dest = (): string => join(root, `out-${n++}`);

describe('exportRevision', () => {
  it('writes the commit tree, not the work tree, and leaves the checkout untouched', async () => {
    const status = git(repo, 'status', '--porcelain=v1', '--untracked-files=all');
    const index = readFileSync(join(repo, '.git', 'index'));
    const head = git(repo, 'rev-parse', 'HEAD');
    const out = dest();
    const r = await exportRevision({ repoDir: repo, ref: 'HEAD', dest: out });
    expect(r).toEqual({ oid: second, dir: out });
    expect(readFileSync(join(out, 'groundwork.yaml'), 'utf8')).toBe('name: two\n');
    expect(existsSync(join(out, 'staged.txt'))).toBe(false);
    expect(existsSync(join(out, 'untracked.txt'))).toBe(false);
    expect(existsSync(join(out, '.git'))).toBe(false);
    expect(git(repo, 'status', '--porcelain=v1', '--untracked-files=all')).toBe(status);
    expect(status).toContain('A  staged.txt');
    expect(readFileSync(join(repo, '.git', 'index')).equals(index)).toBe(true);
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(repo, 'groundwork.yaml'), 'utf8')).toBe('name: uncommitted\n');
  });

  it('keeps the executable bit and symlinks', async () => {
    const out = dest();
    await exportRevision({ repoDir: repo, ref: first, dest: out });
    expect(statSync(join(out, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(out, 'groundwork.yaml')).mode & 0o777).toBe(0o644);
    expect(lstatSync(join(out, 'link.ts')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(out, 'link.ts'))).toBe('platform/main.ts');
  });

  it('writes {"type":"module"} when the tree has no package.json, and keeps one that exists', async () => {
    const a = dest();
    await exportRevision({ repoDir: repo, ref: 'feature', dest: a });
    expect(JSON.parse(readFileSync(join(a, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    const b = dest();
    await exportRevision({ repoDir: repo, ref: 'main', dest: b });
    expect(JSON.parse(readFileSync(join(b, 'package.json'), 'utf8'))).toEqual({
      name: 'platform',
      type: 'module',
    });
  });

  const refs: [string, () => string][] = [
    ['a branch', () => 'feature'],
    ['refs/heads/…', () => 'refs/heads/feature'],
    ['an annotated tag (peeled)', () => 'v1'],
    ['a full id', () => first],
    ['an abbreviated id', () => first.slice(0, 8)],
    ['HEAD~1', () => 'HEAD~1'],
    ['main^', () => 'main^'],
    ['HEAD~1^0', () => 'HEAD~1^0'],
  ];
  for (const [name, ref] of refs) {
    it(`resolves ${name}`, async () => {
      expect((await exportRevision({ repoDir: repo, ref: ref(), dest: dest() })).oid).toBe(first);
    });
  }

  it('returns where a subdirectory of the repository lives in the export', async () => {
    const out = dest();
    const r = await exportRevision({ repoDir: join(repo, 'platform'), ref: 'HEAD', dest: out });
    expect(r.dir).toBe(join(out, 'platform'));
    expect(readFileSync(join(r.dir, 'main.ts'), 'utf8')).toBe('export default 1;\n');
  });

  const failures: [string, () => Promise<unknown>, string][] = [
    [
      'an unknown branch',
      () => exportRevision({ repoDir: repo, ref: 'nope', dest: dest() }),
      'RevisionNotFound',
    ],
    [
      'an unknown id',
      () => exportRevision({ repoDir: repo, ref: 'deadbeef', dest: dest() }),
      'RevisionNotFound',
    ],
    [
      'an unknown full id',
      () => exportRevision({ repoDir: repo, ref: 'f'.repeat(40), dest: dest() }),
      'RevisionNotFound',
    ],
    [
      'past the first commit',
      () => exportRevision({ repoDir: repo, ref: 'HEAD~5', dest: dest() }),
      'RevisionNotFound',
    ],
    [
      'a tree id',
      () => exportRevision({ repoDir: repo, ref: git(repo, 'rev-parse', 'HEAD^{tree}'), dest: dest() }),
      'NotACommit',
    ],
    [
      'a directory outside any repository',
      () => exportRevision({ repoDir: root, ref: 'HEAD', dest: dest() }),
      'NotAGitRepository',
    ],
  ];
  for (const [name, run, code] of failures) {
    it(`refuses ${name} with ${code}`, async () => {
      await expect(run()).rejects.toMatchObject({ code });
    });
  }

  it('refuses a destination that is not empty', async () => {
    const out = dest();
    mkdirSync(out);
    writeFileSync(join(out, 'x'), '');
    await expect(exportRevision({ repoDir: repo, ref: 'HEAD', dest: out })).rejects.toMatchObject({
      code: 'ExportTargetNotEmpty',
    });
  });
});

describe('exportRevision in a clone with packed objects and refs', () => {
  it('reads remote-tracking branches, packed-refs and packfiles', async () => {
    const clone = join(root, 'clone');
    git(root, 'clone', '-q', repo, clone);
    git(clone, 'gc', '-q');
    expect(existsSync(join(clone, '.git', 'packed-refs'))).toBe(true);
    const out = dest();
    const r = await exportRevision({ repoDir: clone, ref: 'origin/feature', dest: out });
    expect(r.oid).toBe(first);
    expect(readFileSync(join(out, 'groundwork.yaml'), 'utf8')).toBe('name: one\n');
  });
});
