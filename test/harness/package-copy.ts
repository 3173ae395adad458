// A package of its own made from the test CLI's build: its bin/ (groundwork.js, bundled-cli.js and
// their package.json) and package.json, with the bundled CLI linked, copied or left out, for tests
// that plant hostile files the bin reads from its package (light answers, the seed code cache).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BIN, BIN_PACKAGE_ROOT } from './cli.js';

/**
 * Makes the package at `root` and returns `root`. `bundle`: the build's dist/cli/main.cjs linked in
 * (the default), copied (its real path is then this package, so a seed beside it is this package's),
 * or left out.
 */
export function packageCopy(root: string, bundle: 'link' | 'copy' | 'none' = 'link'): string {
  mkdirSync(join(root, 'bin'), { recursive: true });
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  for (const file of ['groundwork.js', 'bundled-cli.js', 'package.json'])
    copyFileSync(join(dirname(BIN), file), join(root, 'bin', file));
  copyFileSync(join(BIN_PACKAGE_ROOT, 'package.json'), join(root, 'package.json'));
  const main = join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'main.cjs');
  if (bundle === 'link') symlinkSync(main, join(root, 'dist', 'cli', 'main.cjs'));
  if (bundle === 'copy') copyFileSync(main, join(root, 'dist', 'cli', 'main.cjs'));
  return root;
}

/** Runs the package's bin/groundwork.js with `argv` in `cwd`, with `env` added to this process's. */
export function runPackageCopy(
  root: string,
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(root, 'bin', 'groundwork.js'), ...argv],
      { cwd, env: { ...process.env, GROUNDWORK_RUN_FROM: 'dist', ...env }, maxBuffer: 1 << 24 },
      (_err, stdout, stderr) => resolve({ code: child.exitCode ?? 1, stdout, stderr }),
    );
  });
}
