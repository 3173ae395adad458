// `npm run docs`: writes every page generated from the code (scripts/docs/pages.ts) and names
// those that changed. Run it after changing a command, a flag or a groundwork.yaml/fleet.yaml field.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_PAGES } from './pages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
for (const page of GENERATED_PAGES) {
  const file = join(root, page.path);
  const text = await page.render();
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (before === text) continue;
  writeFileSync(file, text);
  console.log(`wrote ${page.path}`);
}
