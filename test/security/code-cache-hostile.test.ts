// Issue 36: the bundled CLI reads and writes V8 code caches under Groundwork's cache directory
// (bin/bundled-cli.js), named by the command's first word. A cache file is input: one that is
// garbage, another program's, too large, a link, or unwritable never changes what a command does,
// and no argument can name a file outside the cache's directory.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { packageCopy, runPackageCopy } from '../harness/package-copy.js';

const work = mkdtempSync(join(tmpdir(), 'gw-code-cache-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The built CLI (the same entry users run) in the work directory, with `env` added. */
const runCli = (argv: readonly string[], env: NodeJS.ProcessEnv) => groundwork(argv, { cwd: work, env });

/** What `plan --help` prints with no code cache at all. */
let expected: { code: number; stdout: string; stderr: string };
/** The name of `plan`'s cache file (the build's bundle id, this Node). */
let planCache: string;

beforeAll(async () => {
  expected = await runCli(['plan', '--help'], { GROUNDWORK_CODE_CACHE: '0' });
  expect(expected.code).toBe(0);
  const dir = join(work, 'probe');
  await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir });
  planCache = readdirSync(join(dir, 'code-cache'))[0]!;
  expect(planCache).toMatch(/-plan\.bin$/);
});

/** A fresh cache directory with `plan`'s cache file made by `plant`. */
function planted(name: string, plant: (file: string) => void): { dir: string; file: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'code-cache'), { recursive: true });
  const file = join(dir, 'code-cache', planCache);
  plant(file);
  return { dir, file };
}

describe('a hostile code cache', () => {
  it.each([
    ['garbage', (f: string) => writeFileSync(f, 'PLANTED'.repeat(10_000))],
    ['empty', (f: string) => writeFileSync(f, '')],
    ['another script of the same length', (f: string) => writeFileSync(f, Buffer.alloc(3_000_000, 7))],
  ])('%s: ignored and replaced by a real one', async (name, plant) => {
    const { dir, file } = planted(name.replace(/\W+/g, '-'), plant);
    const before = readFileSync(file);
    expect(await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir })).toEqual(expected);
    expect(readFileSync(file).equals(before)).toBe(false);
    expect(await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir })).toEqual(expected);
  });

  it('larger than 64 MB: not read', async () => {
    const { dir, file } = planted('huge', (f) => {
      writeFileSync(f, '');
      truncateSync(f, 65 * 1024 * 1024);
    });
    expect(await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir })).toEqual(expected);
    expect(readFileSync(file).length).toBeLessThan(64 * 1024 * 1024);
  });

  it('a link to a file elsewhere: the file is left alone, the link replaced', async () => {
    const victim = join(work, 'victim.txt');
    writeFileSync(victim, 'KEEP ME');
    const { dir } = planted('link', (f) => symlinkSync(victim, f));
    expect(await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir })).toEqual(expected);
    expect(readFileSync(victim, 'utf8')).toBe('KEEP ME');
  });

  it('a cache directory that cannot be written: the command runs the same', async () => {
    const dir = join(work, 'blocked');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'code-cache'), 'a file where the directory should be');
    expect(await runCli(['plan', '--help'], { GROUNDWORK_CACHE_DIR: dir })).toEqual(expected);
    expect(readFileSync(join(dir, 'code-cache'), 'utf8')).toBe('a file where the directory should be');
  });

  it('a garbage seed beside the bundle: ignored, the command runs the same', async () => {
    const root = packageCopy(join(work, 'seeded-package'), 'copy');
    writeFileSync(join(root, 'dist', 'cli', 'main.cjs.cache'), 'PLANTED'.repeat(100_000));
    const out = await runPackageCopy(root, ['plan', '--help'], work, {
      GROUNDWORK_CACHE_DIR: join(work, 'seeded'),
    });
    expect(out).toEqual(expected);
    expect(readdirSync(join(work, 'seeded', 'code-cache'))).toEqual([planCache]);
  });

  it('no argument names a file outside the cache directory', async () => {
    const dir = join(work, 'words');
    for (const word of ['../../escaped', '/tmp/escaped', 'a/../../escaped', '..', 'PLAN', 'x'.repeat(200)])
      await runCli([word, '--help'], { GROUNDWORK_CACHE_DIR: dir });
    expect(readdirSync(dir)).toEqual(['code-cache']);
    const names = readdirSync(join(dir, 'code-cache'));
    expect(names).toEqual([planCache.replace(/-plan\.bin$/, '--.bin')]);
    expect(readdirSync(work).some((n) => n.includes('escaped'))).toBe(false);
  });
});
