// New input paths of `groundwork secret` (issue 32 item 8): $EDITOR / $SOPS_EDITOR, --out paths,
// the encrypted file's own name and a .sops.yaml found in the repository. The editor variable is
// split into words, never given to a shell; plaintext and keys are never written over a file,
// through a link, beside the encrypted file or into a git work tree; a hostile file name or rule
// stays inside its bounds.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSecretDecrypt } from '../../src/cli/actions/secret.js';
import { runSecretKeygen } from '../../src/cli/actions/secret-keygen.js';
import { editSopsFile } from '../../src/secrets/edit-sops-file.js';
import { openEditWorkspace } from '../../src/secrets/edit-workspace.js';
import { editorCommand, runEditor } from '../../src/secrets/editor-command.js';
import { writeNewPrivateFile } from '../../src/secrets/private-file.js';
import { loadSopsConfig, creationRuleFor } from '../../src/secrets/sops-config.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'gw-secret-hostile-'));

describe('the editor variable', () => {
  it('shell syntax in $EDITOR runs no shell: the words are a program that does not exist', async () => {
    const dir = fresh();
    const pwned = join(dir, 'pwned');
    for (const editor of [
      `true; touch ${pwned}`,
      `$(touch ${pwned})`,
      `\`touch ${pwned}\``,
      `true && touch ${pwned}`,
    ]) {
      const argv = editorCommand({ EDITOR: editor });
      const copy = join(dir, 'copy.yaml');
      writeFileSync(copy, 'a: b\n');
      await runEditor(argv, copy).catch(() => undefined);
      expect(existsSync(pwned), editor).toBe(false);
    }
    // `true;` is not `true`: the word is looked up whole, and not found.
    await expect(runEditor(editorCommand({ EDITOR: 'true; id' }), join(dir, 'copy.yaml'))).rejects.toThrow(
      /could not start \(ENOENT\)/,
    );
  });

  it('the file is the last argument, one word, whatever its name holds', async () => {
    const dir = fresh();
    const script = join(dir, 'args.mjs');
    writeFileSync(
      script,
      "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.argv.at(-1) + '.args', JSON.stringify(process.argv.slice(2)));\n",
    );
    const ws = await openEditWorkspace('x; rm -rf $HOME `id`.sops.yaml', 'a: b\n', { XDG_RUNTIME_DIR: dir });
    try {
      await runEditor([process.execPath, script, '--flag'], ws.file);
      const args = JSON.parse(readFileSync(`${ws.file}.args`, 'utf8')) as string[];
      expect(args).toEqual(['--flag', ws.file]);
      expect(ws.file.startsWith(ws.dir)).toBe(true);
      expect(ws.file).not.toMatch(/[;$` ]/);
    } finally {
      await ws.wipe();
    }
    expect(existsSync(ws.dir)).toBe(false);
  });

  it('a copy the editor replaced by a link to another file is refused, not read', async () => {
    const dir = fresh();
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'a: stolen\n');
    const file = join(dir, 'new.sops.yaml');
    await expect(
      editSopsFile({
        file,
        env: { XDG_RUNTIME_DIR: dir },
        flags: { age: 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p' },
        note: () => {},
        edit: async (copy) => {
          rmSync(copy);
          symlinkSync(outside, copy);
        },
      }),
    ).rejects.toThrow(/replaced by a symbolic link/);
    expect(existsSync(file)).toBe(false);
  });
});

describe('where plaintext and keys are written', () => {
  it('never over a file or through a link (the link target is untouched)', async () => {
    const dir = fresh();
    const target = join(dir, 'target');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(dir, 'link'));
    await expect(writeNewPrivateFile(join(dir, 'link'), 'x')).rejects.toThrow(
      expect.objectContaining({ code: 'SecretOutputRefused' }),
    );
    await expect(writeNewPrivateFile(target, 'x')).rejects.toThrow(/never overwritten/);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });

  it('decrypt --out inside a git work tree or beside the encrypted file is refused before anything is read', async () => {
    const repo = fresh();
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'secrets'));
    const missing = join(repo, 'secrets', 'not-read.sops.yaml');
    await expect(runSecretDecrypt(missing, { out: join(repo, 'plain.yaml') })).rejects.toThrow(
      /inside the git work tree/,
    );
    const outside = fresh();
    await expect(
      runSecretDecrypt(join(outside, 'a.sops.yaml'), { out: join(outside, 'a.yaml') }),
    ).rejects.toThrow(/beside the encrypted file/);
    // A link to the encrypted file's directory is the same directory.
    const elsewhere = fresh();
    symlinkSync(outside, join(elsewhere, 'via-link'));
    await expect(
      runSecretDecrypt(join(outside, 'a.sops.yaml'), { out: join(elsewhere, 'via-link', 'a.yaml') }),
    ).rejects.toThrow(/beside the encrypted file/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('keygen refuses a private key inside a git work tree by default', async () => {
    const repo = fresh();
    mkdirSync(join(repo, '.git'));
    await expect(runSecretKeygen({ out: join(repo, 'key.txt') })).rejects.toThrow(
      expect.objectContaining({ code: 'SecretOutputRefused' }),
    );
    expect(existsSync(join(repo, 'key.txt'))).toBe(false);
  });

  it('an encrypted file that is a link is not edited (the link would be replaced)', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'real.sops.yaml'), 'a: b\n');
    symlinkSync(join(dir, 'real.sops.yaml'), join(dir, 'link.sops.yaml'));
    await expect(
      editSopsFile({
        file: join(dir, 'link.sops.yaml'),
        env: {},
        flags: {},
        note: () => {},
        edit: async () => {},
      }),
    ).rejects.toThrow(/is a symbolic link/);
  });
});

describe('a .sops.yaml from the repository', () => {
  it('a catastrophic path_regex costs linear time (RE2), and an oversized rule list is refused', async () => {
    const dir = fresh();
    writeFileSync(join(dir, '.sops.yaml'), "creation_rules:\n  - path_regex: '^(a+)+$'\n  - age: x\n");
    const config = await loadSopsConfig(join(dir, '.sops.yaml'));
    expect(creationRuleFor(config, join(dir, `${'a'.repeat(50_000)}!`))?.index).toBe(1);
    writeFileSync(join(dir, 'many.yaml'), `creation_rules:\n${'  - age: x\n'.repeat(1001)}`);
    await expect(loadSopsConfig(join(dir, 'many.yaml'))).rejects.toThrow(
      expect.objectContaining({ code: 'SopsConfigInvalid' }),
    );
    writeFileSync(
      join(dir, 'bomb.yaml'),
      `a: &a [x]\n${Array.from({ length: 200 }, (_, i) => `b${i}: [*a, *a]`).join('\n')}\n`,
    );
    await expect(loadSopsConfig(join(dir, 'bomb.yaml'))).rejects.toThrow(/too many YAML aliases/);
  });
});
