// `node --import <this file>`: TypeScript via tsx, then the fallback resolver for bare imports.
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register as registerTsx } from 'tsx/esm/api';

/** Groundwork's package.json, found walking up (this file runs from src/ and from dist/src/). */
function packageJson() {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === 'groundwork-gitops') return file;
    if (dirname(dir) === dir) throw new Error("groundwork's package.json not found");
  }
}

registerTsx();
register('./resolve-hook.mjs', import.meta.url, { data: { parentURL: pathToFileURL(packageJson()).href } });
