import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/core/cache-root.js';
import { groundwork } from '../harness/cli.js';

/**
 * The bundled CLI runs through V8's code cache (bin/bundled-cli.js): a command's first run writes
 * what V8 compiled, and its next runs start from it. These hold that a cache is written once per
 * command, is then accepted (not written again), and changes nothing a command prints.
 */
const { cacheWord, cacheDir } = createRequire(import.meta.url)('../../bin/bundled-cli.js') as {
  cacheWord: (argv: string[]) => string;
  cacheDir: (env: NodeJS.ProcessEnv) => string | undefined;
};

const work = mkdtempSync(join(tmpdir(), 'gw-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The built CLI (the same entry users run) in the work directory, with `env` added. */
const runCli = (argv: readonly string[], env: NodeJS.ProcessEnv) => groundwork(argv, { cwd: work, env });

describe('the command word a cache is named by', () => {
  it.each([
    [['node', 'gw', 'plan', '--dir', 'x'], 'plan'],
    [['node', 'gw', '--kubeconfig', 'k', 'drift'], 'k'],
    [['node', 'gw', 'cluster', 'up'], 'cluster'],
    [['node', 'gw'], '-'],
    [['node', 'gw', '--help'], '-'],
    [['node', 'gw', '../../etc/passwd'], '-'],
    [['node', 'gw', 'Plan'], '-'],
    [['node', 'gw', 'a/b'], '-'],
    [['node', 'gw', 'x'.repeat(33)], '-'],
  ])('%j -> %s', (argv, word) => {
    expect(cacheWord(argv)).toBe(word);
  });
});

describe("the code cache's directory", () => {
  // bin/ is plain CommonJS that loads before any of src/, so it repeats cacheRoot's rule: these hold the two equal.
  it.each([
    [{}],
    [{ GROUNDWORK_CACHE_DIR: '/c/gw' }],
    [{ XDG_CACHE_HOME: '/x' }],
    [{ GROUNDWORK_CACHE_DIR: '/c/gw', XDG_CACHE_HOME: '/x' }],
    [{ GROUNDWORK_CACHE_DIR: '', XDG_CACHE_HOME: '' }],
  ])('is code-cache in the cache root for %j', (env: NodeJS.ProcessEnv) => {
    expect(cacheDir(env)).toBe(join(cacheRoot(env), 'code-cache'));
  });

  it('is none with GROUNDWORK_CODE_CACHE=0', () => {
    expect(cacheDir({ GROUNDWORK_CODE_CACHE: '0' })).toBeUndefined();
  });
});

describe('the code cache', () => {
  it('is written by a command first run, then read: same output, not written again', async () => {
    const cacheDir = join(work, 'cache');
    const env = { GROUNDWORK_CACHE_DIR: cacheDir };
    const without = await runCli(['plan', '--help'], { GROUNDWORK_CODE_CACHE: '0' });
    expect(without.code).toBe(0);
    expect(without.stdout).toContain('Usage: groundwork plan');

    const first = await runCli(['plan', '--help'], env);
    expect(first).toEqual(without);
    const names = readdirSync(join(cacheDir, 'code-cache'));
    expect(names).toEqual([
      expect.stringMatching(new RegExp(`^[0-9a-f]{32}-${process.version}-${process.arch}-plan\\.bin$`)),
    ]);
    const file = join(cacheDir, 'code-cache', names[0]!);
    const written = { bytes: readFileSync(file), ino: statSync(file).ino, mtimeMs: statSync(file).mtimeMs };
    expect(written.bytes.length).toBeGreaterThan(100_000);

    const second = await runCli(['plan', '--help'], env);
    expect(second).toEqual(without);
    expect(statSync(file).ino).toBe(written.ino);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    const other = await runCli(['drift', '--help'], env);
    expect(other.code).toBe(0);
    expect(readdirSync(join(cacheDir, 'code-cache')).sort()).toEqual(
      [names[0]!, names[0]!.replace(/-plan\.bin$/, '-drift.bin')].sort(),
    );
  });

  it('is not written by a command that fails (exit 2): a refused command leaves nothing behind', async () => {
    const cacheDir = join(work, 'failed');
    const out = await runCli(['plan', '--no-such-flag'], { GROUNDWORK_CACHE_DIR: cacheDir });
    expect(out.code).toBe(2);
    expect(() => statSync(join(cacheDir, 'code-cache'))).toThrow();
  });

  it('is not written when GROUNDWORK_CODE_CACHE=0', async () => {
    const cacheDir = join(work, 'off');
    const out = await runCli(['plan', '--help'], {
      GROUNDWORK_CACHE_DIR: cacheDir,
      GROUNDWORK_CODE_CACHE: '0',
    });
    expect(out.code).toBe(0);
    expect(() => statSync(join(cacheDir, 'code-cache'))).toThrow();
  });
});
