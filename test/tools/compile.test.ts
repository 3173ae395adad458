import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentProgress } from '../../src/core/progress.js';
import { compile } from '../../src/tools/compile.js';

/** A module with two main packages that print their name and the `-X` variable. */
function twoCommands(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-compile-'));
  writeFileSync(join(dir, 'go.mod'), 'module example.test/two\n\ngo 1.22\n');
  for (const name of ['alpha', 'beta']) {
    mkdirSync(join(dir, 'cmd', name), { recursive: true });
    writeFileSync(
      join(dir, 'cmd', name, 'main.go'),
      `package main\n\nimport "fmt"\n\nvar version = "unset"\n\nfunc main() { fmt.Println("${name}", version) }\n`,
    );
  }
  return dir;
}

describe('compile', () => {
  it('builds several main packages in one go build, each binary named after its package', async () => {
    const dir = twoCommands();
    const out = join(dir, 'bin');
    mkdirSync(out);
    await compile({
      moduleDir: dir,
      pkg: ['example.test/two/cmd/alpha', 'example.test/two/cmd/beta'],
      out,
      ldflags: '-s -w -X main.version=v1.2.3',
      progress: silentProgress,
    });
    expect(execFileSync(join(out, 'alpha'), { encoding: 'utf8' })).toBe('alpha v1.2.3\n');
    expect(execFileSync(join(out, 'beta'), { encoding: 'utf8' })).toBe('beta v1.2.3\n');
  }, 120_000);

  it('builds one package into the named file', async () => {
    const dir = twoCommands();
    await compile({
      moduleDir: dir,
      pkg: 'example.test/two/cmd/beta',
      out: join(dir, 'my-beta'),
      ldflags: '-s -w',
      progress: silentProgress,
    });
    expect(execFileSync(join(dir, 'my-beta'), { encoding: 'utf8' })).toBe('beta unset\n');
    expect(existsSync(join(dir, 'alpha'))).toBe(false);
  }, 120_000);
});
