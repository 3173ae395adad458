// `npm run build` (and `npm pack` through prepack): compiles src/ and bench/ to dist/ with
// declarations, copies the synth child's plain-JS module hooks beside the compiled child, and
// bundles the compiled CLI into dist/cli/ for a fast start (scripts/bundle-cli.mjs).
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: root,
});
const child = join('src', 'render', 'sandbox');
for (const f of readdirSync(join(root, child)).filter((f) => f.endsWith('.mjs')))
  cpSync(join(root, child, f), join(root, 'dist', child, f));
await bundleCli(root);
