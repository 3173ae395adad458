import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * Packages that cost a long-running process memory for its whole life once loaded, and that most
 * runs never use: ssh2 makes a 16 MB WebAssembly memory when loaded (git over SSH only), openpgp
 * is 2 MB of heap (OpenPGP signatures and keys only). They are loaded by `import()` where they are
 * used, never by a static import, which every command that reaches the module would pay.
 */
const LAZY = ['ssh2', 'openpgp'];

describe('packages loaded only where they are used', () => {
  const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));

  it.each(LAZY)('%s: no static import of its values in src/', (pkg) => {
    const found: string[] = [];
    const statically = new RegExp(`^import (?!type )[^;]*from '${pkg}(/[^']*)?';`, 'gm');
    for (const file of files)
      for (const m of readFileSync(file, 'utf8').matchAll(statically))
        found.push(`${relative(SRC, file)}: ${m[0]}`);
    expect(found).toEqual([]);
  });

  it.each(LAZY)('%s: imported with import() somewhere (the list is not stale)', (pkg) => {
    const lazily = files.filter((f) => readFileSync(f, 'utf8').includes(`await import('${pkg}')`));
    expect(lazily.length).toBeGreaterThan(0);
  });
});
