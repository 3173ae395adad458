import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Root of the Groundwork package (the directory of its package.json), found by walking up from
 * this module, so it is the same from the sources (`src/core`) and from a build (`dist/src/core`);
 * `GROUNDWORK_PACKAGE_ROOT` overrides it (set for the bundled synth child).
 */
export const packageRoot: string =
  // The sandboxed synth child is a bundle in a temp directory: its parent tells it where Groundwork is.
  process.env.GROUNDWORK_PACKAGE_ROOT ?? findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'groundwork-gitops'
    )
      return dir;
    if (dirname(dir) === dir) throw new Error(`groundwork's package.json not found above ${start}`);
  }
}

/** Groundwork's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
