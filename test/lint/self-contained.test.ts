import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Built from parts so that this file does not name what it looks for.
const FORBIDDEN = [['..', 'shared'].join('/'), ['shared', 'fixtures'].join('/')];

/**
 * The git-tracked (and untracked, not ignored) text files under `dir` that name the workspace's
 * reference folder: a user's clone has nothing beside it, so nothing may read from there.
 */
function referencesOutside(dir: string): string[] {
  return filesOf(dir).filter((f) => {
    let text: string;
    try {
      text = readFileSync(join(dir, f), 'utf8');
    } catch {
      return false; // deleted in the work tree
    }
    return !text.includes('\0') && FORBIDDEN.some((s) => text.includes(s));
  });
}

/** Git's view (tracked, and untracked not ignored) in a checkout; else every file but dependencies and builds. */
function filesOf(dir: string): string[] {
  if (existsSync(join(dir, '.git'))) {
    return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: dir, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  }
  const skip = new Set(['node_modules', 'dist', '.git']);
  const walk = (rel: string): string[] =>
    readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) =>
      skip.has(e.name)
        ? []
        : e.isDirectory()
          ? walk(join(rel, e.name))
          : e.isFile()
            ? [join(rel, e.name)]
            : [],
    );
  return walk('');
}

describe('self-contained', () => {
  it('no file of the repository refers to a folder beside the checkout', () => {
    expect(referencesOutside(root)).toEqual([]);
  });

  it('the scan catches a planted reference (it cannot pass by finding nothing to read)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-self-contained-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, 'ok.ts'), "export const x = './data';\n");
    writeFileSync(join(dir, 'bad.ts'), `export const y = '${FORBIDDEN[0]}/fixtures/crds';\n`);
    expect(referencesOutside(dir)).toEqual(['bad.ts']);
    // The same without git (a copy of the checkout, as .ci/run makes).
    const plain = mkdtempSync(join(tmpdir(), 'gw-self-contained-'));
    writeFileSync(join(plain, 'bad.md'), `read ${FORBIDDEN[1]}\n`);
    expect(referencesOutside(plain)).toEqual(['bad.md']);
  });
});
