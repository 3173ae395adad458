// Issue 36: bin/groundwork.js answers `--help`, `version --client` and `completion <shell>` from
// dist/cli/light-answers.json, a file of the package written by the build. Read back, it is data: a
// file that is missing, does not parse or is not as the build writes it (an answer that is not a
// string, an argv that is not a list of words, a prefix or a longer command line) is never printed
// in part or in place of another command's output; the full CLI answers instead.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN_PACKAGE_ROOT } from '../harness/cli.js';
import { packageCopy, runPackageCopy } from '../harness/package-copy.js';

const work = mkdtempSync(join(tmpdir(), 'gw-light-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const real = JSON.parse(
  readFileSync(join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'light-answers.json'), 'utf8'),
) as {
  answers: { argv: string[]; stdout: string }[];
};
const realHelp = real.answers.find((a) => a.argv.join(' ') === '--help')!.stdout;

/** A package of its own with `table` as its light answers (none when undefined), the bundled CLI linked in unless `withCli` is false. */
function pkg(name: string, table: string | undefined, withCli = true): string {
  const root = packageCopy(join(work, name), withCli ? 'link' : 'none');
  if (table !== undefined) writeFileSync(join(root, 'dist', 'cli', 'light-answers.json'), table);
  return root;
}

async function run(root: string, argv: readonly string[]): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await runPackageCopy(root, argv, work);
  return { code, stdout };
}

describe('light answers read back from the package', () => {
  it('are what answers a light command: the bundled CLI is not loaded for it', async () => {
    const root = pkg('answers-only', JSON.stringify(real), false);
    expect(await run(root, ['--help'])).toEqual({ code: 0, stdout: realHelp });
  });

  const hostile: [string, string][] = [
    ['not JSON', '{"answers": [{"argv": ["--help"], "stdout": "PLANTED'],
    ['not an object', '"PLANTED"'],
    ['answers not a list', JSON.stringify({ answers: { argv: ['--help'], stdout: 'PLANTED' } })],
    [
      'an answer that is not a string',
      JSON.stringify({ answers: [{ argv: ['--help'], stdout: ['PLANTED'] }] }),
    ],
    ['an argv that is a string', JSON.stringify({ answers: [{ argv: '--help', stdout: 'PLANTED' }] })],
    ['a null answer', JSON.stringify({ answers: [null, { argv: null, stdout: 'PLANTED' }] })],
    [
      'a width that is not a number',
      JSON.stringify({ answers: [{ argv: ['--help'], stdout: 'PLANTED', width: '80' }] }),
    ],
    [
      'help at another width',
      JSON.stringify({ answers: [{ argv: ['--help'], stdout: 'PLANTED', width: 132 }] }),
    ],
  ];

  it.each(hostile)('%s: the full CLI answers', async (name, table) => {
    const root = pkg(name.replace(/\W+/g, '-'), table);
    const out = await run(root, ['--help']);
    expect(out.stdout).not.toContain('PLANTED');
    expect(out).toEqual({ code: 0, stdout: realHelp });
  });

  it('answers only the exact command line: not a prefix, a longer one or another order', async () => {
    const planted = JSON.stringify({
      answers: [
        { argv: ['version'], stdout: 'PLANTED' },
        { argv: ['--client', 'version'], stdout: 'PLANTED' },
        { argv: ['completion'], stdout: 'PLANTED' },
      ],
    });
    const root = pkg('exact', planted);
    const version = await run(root, ['version', '--client']);
    expect(version).toEqual({ code: 0, stdout: expect.stringMatching(/^Client Version: \S+\n$/) });
    const bash = await run(root, ['completion', 'bash']);
    expect(bash.stdout).not.toContain('PLANTED');
    expect(bash.stdout).toBe(real.answers.find((a) => a.argv.join(' ') === 'completion bash')!.stdout);
  });
});
