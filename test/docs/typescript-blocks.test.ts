import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkTypeScriptBlocks, typeScriptBlocks, type TypeScriptBlock } from './typescript-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The pages a user copies code from: the README and docs/*.md. */
const PAGES = [
  'README.md',
  ...readdirSync(new URL('../../docs', import.meta.url))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort(),
];

describe("every TypeScript block of README.md and docs/ that imports 'groundwork-gitops'", () => {
  it('type-checks against src/index.ts (page:line: message for each that does not)', () => {
    const blocks = PAGES.flatMap((p) => typeScriptBlocks(root, p));
    expect(blocks.map((b) => b.page)).toEqual(
      expect.arrayContaining(['docs/constructs.md', 'docs/machine-config.md', 'docs/secrets.md']),
    );
    expect(checkTypeScriptBlocks(root, blocks)).toEqual([]);
  }, 120_000);
});

describe('the block checker', () => {
  const page = (code: string, line = 10): TypeScriptBlock => ({ page: 'docs/x.md', line, code });

  it('reports a wrong prop, an unknown export and a relative import with the page line they are on', () => {
    const problems = checkTypeScriptBlocks(root, [
      page(
        [
          "import { MachineConfig, NoSuchThing } from 'groundwork-gitops';", // line 10
          "new MachineConfig(platform, 'x', { pool: 'worker', kernelArgs: ['nosmt'] });", // line 11
        ].join('\n'),
      ),
      page(
        "import { MachineConfig } from 'groundwork-gitops';\nimport { z } from '../src/nowhere.js';\n",
        40,
      ),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^docs\/x\.md:10: .*NoSuchThing/),
      expect.stringMatching(/^docs\/x\.md:11: .*kernelArgs/),
      expect.stringMatching(/^docs\/x\.md:41: Cannot find module '\.\.\/src\/nowhere\.js'/),
    ]);
  }, 120_000);

  it('accepts a snippet of build() that uses platform, and a block that declares its own', () => {
    const snippet =
      "import { MachineConfig } from 'groundwork-gitops';\nnew MachineConfig(platform, 'x', { pool: 'worker' });\n";
    const own =
      "import { Platform, definePlatform, z } from 'groundwork-gitops';\n" +
      "export default definePlatform({ values: z.object({}), build(scope) { new Platform(scope, 'p', { openshiftVersion: '4.16' }); } });\n";
    expect(checkTypeScriptBlocks(root, [page(snippet), page(own)])).toEqual([]);
  }, 120_000);
});
