import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_PACKAGE_ROOT, groundwork } from '../harness/cli.js';

const dependencyOf = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies['groundwork-gitops'];

describe('init --groundwork-version', () => {
  it("without it names the running Groundwork's own package directory, which resolves, and says why", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gw-initver-'));
    const init = await groundwork(['init', 'plat'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    const dependency = dependencyOf(join(cwd, 'plat'))!;
    expect(dependency).toBe(`file:${BIN_PACKAGE_ROOT}`);
    const pkg = JSON.parse(readFileSync(join(dependency.slice('file:'.length), 'package.json'), 'utf8')) as {
      name: string;
    };
    expect(pkg.name).toBe('groundwork-gitops');
    expect(init.stdout).toContain('groundwork-gitops is not published on the npm registry yet');
    expect(init.stdout).toContain('--groundwork-version <groundwork-gitops-<version>.tgz>');
    // npm would link the directory, and synth reads no link that leaves the repository: copied.
    expect(readFileSync(join(cwd, 'plat', '.npmrc'), 'utf8')).toBe('install-links=true\n');
  });

  it('writes a git URL with shell metacharacters as data: exactly, and nothing runs it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gw-initver-'));
    // No spaces (a git URL has none), so ${IFS} stands in for them as an attacker would write it.
    const spec = 'git+https://git.example.invalid/groundwork.git#$(touch${IFS}PWNED);`touch${IFS}PWNED2`';
    const init = await groundwork(['init', 'plat', '--groundwork-version', spec], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(dependencyOf(join(cwd, 'plat'))).toBe(spec);
    for (const f of ['PWNED', 'PWNED2', 'plat/PWNED', 'plat/PWNED2'])
      expect(existsSync(join(cwd, f))).toBe(false);
  });

  it('refuses a value that is no version, URL or file, writing nothing and running nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'gw-initver-'));
    const init = await groundwork(['init', 'plat', '--groundwork-version', '1.0.0; touch PWNED'], { cwd });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('--groundwork-version: not a version or range, a git URL');
    expect(init.stderr).not.toContain('touch PWNED');
    expect(existsSync(join(cwd, 'plat'))).toBe(false);
    expect(existsSync(join(cwd, 'PWNED'))).toBe(false);
  });

  it('copies a tarball from outside the new directory into vendor/, so the dependency survives a move', async () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-initver-'));
    mkdirSync(join(root, 'downloads'));
    mkdirSync(join(root, 'work'));
    writeFileSync(join(root, 'downloads', 'groundwork-gitops-0.1.0.tgz'), 'tarball bytes');
    const init = await groundwork(
      ['init', 'plat', '--groundwork-version', '../downloads/groundwork-gitops-0.1.0.tgz'],
      { cwd: join(root, 'work') },
    );
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('vendor/groundwork-gitops-0.1.0.tgz');
    const moved = join(root, 'elsewhere');
    renameSync(join(root, 'work', 'plat'), moved);
    expect(dependencyOf(moved)).toBe('file:vendor/groundwork-gitops-0.1.0.tgz');
    expect(existsSync(join(moved, '.npmrc'))).toBe(false);
    expect(readFileSync(join(moved, 'vendor', 'groundwork-gitops-0.1.0.tgz'), 'utf8')).toBe('tarball bytes');
  });
});
