import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../scripts/docs/cli-reference.js';
import { GENERATED_PAGES } from '../../scripts/docs/pages.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('pages generated from the code', () => {
  for (const page of GENERATED_PAGES)
    it(`${page.path} is what \`npm run docs\` writes`, async () => {
      const file = join(root, page.path);
      const expected = await page.render();
      expect(existsSync(file), `${page.path} is missing: run npm run docs and commit it`).toBe(true);
      const committed = readFileSync(file, 'utf8');
      expect(committed === expected, `${page.path} is stale: run npm run docs and commit it`).toBe(true);
    });

});

describe('the CLI reference', () => {
  const program = new Command('tool').description('does things');
  const sub = program.command('thing').description('a thing');
  sub
    .command('make <name> [size]')
    .description('make a thing | with a pipe')
    .option('-o, --output <format>', 'output format', 'text')
    .option('--dry-run', 'change nothing')
    .requiredOption('--owner <who>', 'who owns it');
  program.command('hidden', { hidden: true });
  const page = cliReference(program);

  it('documents each command, argument and option with its default, and leaves hidden ones out', () => {
    expect(page).toContain('### tool thing make');
    expect(page).toContain('| `<name>` |');
    expect(page).toContain('| `-o, --output <format>` | output format | `"text"` |');
    expect(page).toContain('| `--owner <who>` | who owns it (required) |  |');
    expect(page).toContain('make a thing \\| with a pipe');
    expect(page).not.toContain('hidden');
  });

  it('links each command to its section', () => {
    expect(page).toContain('| [`thing`](#tool-thing) | a thing |');
    expect(page).toContain('| [`make`](#tool-thing-make) |');
  });
});
