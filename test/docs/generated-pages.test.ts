import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../scripts/docs/cli-reference.js';
import { GENERATED_PAGES } from '../../scripts/docs/pages.js';
import { fieldRows, schemaReference, UNDESCRIBED } from '../../scripts/docs/schema-reference.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where two texts first differ, as a line of each (the reader sees what changed without a 900-line diff). */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, generated ${JSON.stringify(b[at] ?? '(end)')}`;
}

describe('pages generated from the code', () => {
  for (const page of GENERATED_PAGES)
    it(`${page.path} is what \`npm run docs\` writes`, async () => {
      const file = join(root, page.path);
      const expected = await page.render();
      expect(existsSync(file), `${page.path} is missing: run npm run docs and commit it`).toBe(true);
      const committed = readFileSync(file, 'utf8');
      expect(
        committed === expected,
        `${page.path} is stale: run npm run docs and commit it (${firstDifference(committed, expected)})`,
      ).toBe(true);
    });

  it('describe every field of groundwork.yaml and fleet.yaml', async () => {
    for (const page of GENERATED_PAGES) expect(await page.render(), page.path).not.toContain(UNDESCRIBED);
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

describe('a schema reference', () => {
  const schema = z
    .object({
      name: z.string().describe('the name'),
      size: z.number().default(3).describe('how big'),
      parts: z
        .array(z.object({ kind: z.enum(['a', 'b']).describe('which'), n: z.string().transform(Number) }))
        .default([])
        .describe('the parts'),
    })
    .strict();

  it('lists each field with its type, whether required, its default, and its description', () => {
    expect(fieldRows(schema)).toEqual([
      { path: 'name', type: 'string', required: true, description: 'the name' },
      { path: 'size', type: 'number', required: false, default: 3, description: 'how big' },
      { path: 'parts', type: 'object[]', required: false, default: [], description: 'the parts' },
      { path: 'parts[].kind', type: '"a" | "b"', required: true, description: 'which' },
      { path: 'parts[].n', type: 'string', required: true, description: '' },
    ]);
  });

  it('marks a field described nowhere, and takes a description by the end of its path', () => {
    const page = (descriptions?: Record<string, string>) =>
      schemaReference({ title: 't', intro: 'i', source: 's', example: 'name: x', schema, descriptions });
    expect(page()).toContain(`| \`parts[].n\` | \`string\` | yes |  | ${UNDESCRIBED} |`);
    expect(page({ 'parts[].n': 'a number' })).not.toContain(UNDESCRIBED);
  });

  it('refuses an example the schema refuses', () => {
    expect(() =>
      schemaReference({ title: 't', intro: 'i', source: 's', example: 'size: 1', schema }),
    ).toThrow(/example of t is invalid/);
  });
});
