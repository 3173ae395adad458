import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../harness/cli.js';

const bin = BIN;

// `groundwork` on PATH, as an installed command is: the scripts call it back for candidates.
const shims = mkdtempSync(join(tmpdir(), 'gw-completion-'));
writeFileSync(join(shims, 'groundwork'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
chmodSync(join(shims, 'groundwork'), 0o755);
const env = { ...process.env, PATH: `${shims}:${process.env.PATH}` };

function script(shell: string): string {
  return execFileSync('groundwork', ['completion', shell], { env, encoding: 'utf8' });
}

/** Runs the bash completion function for a command line, as bash-completion does on <TAB>. */
function complete(words: string[]): string[] {
  const file = join(shims, 'groundwork.bash');
  writeFileSync(file, script('bash'));
  const line = words.join(' ');
  const program = [
    'source /usr/share/bash-completion/bash_completion',
    `source ${file}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE='${line}'`,
    'COMP_POINT=${#COMP_LINE}',
    '__groundwork_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  // stderr piped: outside a real <TAB>, bash-completion's `compopt` complains and changes nothing.
  return execFileSync('bash', ['-c', program], { env, encoding: 'utf8', stdio: 'pipe' })
    .split('\n')
    .filter(Boolean);
}

describe('groundwork completion', () => {
  it('completes commands in bash', () => {
    expect(complete(['groundwork', 'synt'])).toEqual(['synth']);
    expect(complete(['groundwork', 'up'])).toEqual(['upgrade-path']);
  });

  it('completes options of a command, and the values of a choice option', () => {
    expect(complete(['groundwork', 'synth', '--ov'])).toEqual(['--overlay']);
    expect(complete(['groundwork', 'plan', '--output', ''])).toEqual(['text', 'markdown', 'json', 'yaml']);
  });

  it('completes subcommands (generated from the command tree, so new ones appear without edits)', () => {
    expect(complete(['groundwork', 'cluster', ''])).toEqual(
      expect.arrayContaining(['up', 'down', 'status', 'kubeconfig']),
    );
  });

  it('prints zsh and fish scripts that their shells parse', () => {
    const zsh = join(shims, '_groundwork');
    writeFileSync(zsh, script('zsh'));
    execFileSync('zsh', ['-n', zsh]);
    const fish = join(shims, 'groundwork.fish');
    writeFileSync(fish, script('fish'));
    execFileSync('fish', ['--no-execute', fish]);
    expect(script('zsh')).toContain('groundwork');
  });

  it('--help says the bash script needs bash-completion, and how each script is loaded', () => {
    const help = execFileSync('groundwork', ['completion', '--help'], { env, encoding: 'utf8' });
    expect(help).toContain('bash        needs the bash-completion package');
    expect(help).toContain('source <(groundwork completion bash)');
    for (const shell of ['zsh', 'fish', 'powershell'])
      expect(help).toContain(`groundwork completion ${shell}`);
  });

  it('the bash script does not work without bash-completion, as its help says', () => {
    const file = join(shims, 'groundwork-bare.bash');
    writeFileSync(file, script('bash'));
    const program = `source ${file}\nCOMP_WORDS=(groundwork sy)\nCOMP_CWORD=1\n__groundwork_complete`;
    const r = spawnSync('bash', ['--norc', '-c', program], { env, encoding: 'utf8' });
    expect(r.stderr).toContain('_get_comp_words_by_ref: command not found');
  });

  it('refuses an unknown shell with exit 2', () => {
    let code = 0;
    try {
      execFileSync('groundwork', ['completion', 'tcsh'], { env, stdio: 'pipe' });
    } catch (err) {
      code = (err as { status: number }).status;
    }
    expect(code).toBe(2);
  });
});
