// `npm pack` of this checkout, once per content: the install and tutorial e2e files both install
// Groundwork from its tarball, as the README tells users to, and packing runs the package's whole
// build (`prepack`: tsc and the CLI bundle, about 25 s of CPU). The tarball is kept in the cache
// under a hash of what it is made from (`sourceKey`), and a lock keeps two files from packing at
// once (each pack rebuilds the checkout's dist/).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from '../../src/core/cache-root.js';
import { REPO, sourceKey } from './cli-build.js';

/** What `npm pack` puts in the tarball beyond the CLI build's inputs (package.json `files`). */
const PACKED = [
  'docs',
  'README.md',
  'CONTRIBUTING.md',
  'LICENSE',
  'NOTICE',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
  'bench',
];

function npmPack(dest: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(
      'npm',
      ['pack', '--pack-destination', dest, '--loglevel=error'],
      { cwd: REPO, maxBuffer: 1 << 26, timeout: 600_000 },
      (err, _stdout, stderr) => (err ? reject(new Error(`npm pack failed: ${stderr}`)) : resolve()),
    ),
  );
}

async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than 10 minutes belongs to a run that died.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > deadline) throw new Error(`waited 10 minutes for ${lock}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Copies this checkout's packed tarball into `dest` (packing it first if this content was never packed); returns its path. */
export async function packedTarball(dest: string): Promise<string> {
  const cache = join(cacheRoot(), 'test-pack');
  mkdirSync(cache, { recursive: true });
  const dir = join(cache, sourceKey(PACKED));
  if (!existsSync(dir))
    await withLock(join(cache, '.lock'), async () => {
      if (existsSync(dir)) return;
      const tmp = `${dir}.tmp-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp);
      await npmPack(tmp);
      renameSync(tmp, dir);
      // Tarballs of other contents: one is kept besides this one.
      const others = readdirSync(cache)
        .filter((n) => n !== '.lock' && join(cache, n) !== dir)
        .map((n) => join(cache, n))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
      for (const old of others.slice(1)) rmSync(old, { recursive: true, force: true });
    });
  const name = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`no tarball in ${dir}`);
  cpSync(join(dir, name), join(dest, name));
  return join(dest, name);
}
