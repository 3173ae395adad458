import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN_PACKAGE_ROOT, groundwork } from '../harness/cli.js';

/**
 * The light commands bin/groundwork.js answers from dist/cli/light-answers.json (written by the
 * build, scripts/bundle-cli.mjs) print exactly what the full CLI prints: the same bytes as the
 * bundled CLI's `main`, run here in another directory, with another HOME and kubeconfig and colours
 * forced, so an answer can never go stale or depend on where it was built.
 */
const TABLE = join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'light-answers.json');
const MAIN = join(BIN_PACKAGE_ROOT, 'dist', 'cli', 'main.cjs');

interface Answer {
  argv: string[];
  stdout: string;
  width?: number;
}

const work = mkdtempSync(join(tmpdir(), 'gw-light-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The bundled CLI's `main` itself (never the light answers), with `argv`, in `work`. */
function fullCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string }> {
  const script = join(work, 'full.cjs');
  writeFileSync(
    script,
    `require(${JSON.stringify(MAIN)}).main(process.argv).then((code) => { process.exitCode = code; });\n`,
  );
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [script, ...argv],
      { cwd: work, env: { ...process.env, ...env }, maxBuffer: 1 << 24 },
      (_err, stdout) => resolve({ code: child.exitCode ?? 1, stdout }),
    );
  });
}

describe('light answers', () => {
  const answers = (JSON.parse(readFileSync(TABLE, 'utf8')) as { answers: Answer[] }).answers;

  it('covers --help, version --client and completion for each shell', () => {
    expect(answers.map((a) => a.argv.join(' '))).toEqual([
      '--help',
      '-h',
      'version --client',
      'completion bash',
      'completion zsh',
      'completion fish',
      'completion powershell',
    ]);
    expect(answers.filter((a) => a.width !== undefined).map((a) => a.argv[0])).toEqual(['--help', '-h']);
  });

  const elsewhere = {
    HOME: work,
    KUBECONFIG: join(work, 'no-such-kubeconfig'),
    FORCE_COLOR: '1',
    GROUNDWORK_RUN_FROM: 'dist',
  };

  it.each(answers.map((a) => [a.argv.join(' '), a] as const))(
    '%s: the answer is the full CLI output, anywhere',
    async (_name, answer) => {
      const full = await fullCli(answer.argv, elsewhere);
      expect(full.code).toBe(0);
      expect(answer.stdout.length).toBeGreaterThan(10);
      expect(answer.stdout).toBe(full.stdout);
      const fast = await groundwork(answer.argv, { cwd: work, env: elsewhere });
      expect(fast).toEqual({ code: 0, stdout: full.stdout, stderr: '' });
    },
  );
});
