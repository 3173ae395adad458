// groundwork secret keygen, init-rules, encrypt, decrypt and edit (issue 32 item 8) with the real
// sops v3.13.3: a key Groundwork makes opens files sops writes, a .sops.yaml Groundwork writes is
// the one sops follows, and what decrypt prints and edit writes agree with sops, value for value.
import { execFile } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { toolPath, useTools } from '../harness/tools.js';

useTools('sops');

const run = promisify(execFile);
const PLANTED = 'planted-secret-cli-7c41';

let sops: string;
let home: string;
let repo: string;
let keyFile: string;
let recipient: string;

/** The real sops in the repository (its .sops.yaml applies), with the key Groundwork made. */
async function sopsRun(args: string[]): Promise<string> {
  const { stdout } = await run(sops, args, {
    cwd: repo,
    env: { PATH: process.env.PATH, HOME: home, SOPS_AGE_KEY_FILE: keyFile },
  });
  return stdout;
}

/** groundwork with the key; `editWith` makes the editor replace the copy by that text. */
function gw(args: string[], opts: { editWith?: string; env?: NodeJS.ProcessEnv } = {}) {
  const env: NodeJS.ProcessEnv = { HOME: home, SOPS_AGE_KEY_FILE: keyFile, SOPS_CONFIG: '', ...opts.env };
  if (opts.editWith !== undefined) {
    const replacement = join(home, `edit-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(replacement, opts.editWith);
    env.EDITOR = `'${process.execPath}' '${join(home, 'editor.mjs')}' '${replacement}'`;
  }
  return groundwork(args, { cwd: repo, env });
}

beforeAll(async () => {
  sops = await toolPath('sops');
  home = mkdtempSync(join(tmpdir(), 'gw-secret-cli-home-'));
  repo = mkdtempSync(join(tmpdir(), 'gw-secret-cli-repo-'));
  mkdirSync(join(repo, 'secrets'));
  // An editor that copies its first argument over the file it is given (its last argument).
  writeFileSync(
    join(home, 'editor.mjs'),
    "import { copyFileSync } from 'node:fs';\nconst [from, file] = process.argv.slice(2);\ncopyFileSync(from, file);\n",
  );
}, 600_000);

describe('groundwork secret with the real sops', () => {
  it('keygen writes a private age key (0600, never over a file) and prints its recipient', async () => {
    keyFile = join(home, 'keys.txt');
    const made = await gw(['secret', 'keygen', '--out', keyFile]);
    expect(made.code).toBe(0);
    recipient = made.stdout.trim();
    expect(recipient).toMatch(/^age1[0-9a-z]{58}$/);
    const text = readFileSync(keyFile, 'utf8');
    expect(text).toMatch(/^# created: .+\n# public key: age1.+\nAGE-SECRET-KEY-1[0-9A-Z]+\n$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(made.stdout + made.stderr).not.toContain('AGE-SECRET-KEY');
    expect(made.stderr).toContain(`export SOPS_AGE_KEY_FILE=${keyFile}`);
    const again = await gw(['secret', 'keygen', '--out', keyFile]);
    expect([again.code, again.stderr]).toEqual([
      2,
      expect.stringContaining('exists: it is never overwritten'),
    ]);
    expect(readFileSync(keyFile, 'utf8')).toBe(text);
  });

  it('init-rules writes a .sops.yaml that sops follows, and never overwrites one', async () => {
    const init = await gw(['secret', 'init-rules', '--age', recipient, '--dir', repo]);
    expect(init.code).toBe(0);
    const rules = readFileSync(join(repo, '.sops.yaml'), 'utf8');
    const again = await gw(['secret', 'init-rules', '--age', recipient, '--dir', repo]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('add this rule to');
    expect(readFileSync(join(repo, '.sops.yaml'), 'utf8')).toBe(rules);
    // sops encrypts a file under secrets/ for the rule's recipient, with no flag; Groundwork opens it.
    writeFileSync(
      join(repo, 'secrets', 'by-sops.yaml'),
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: ${PLANTED}\n`,
    );
    const encrypted = await sopsRun(['--encrypt', 'secrets/by-sops.yaml']);
    expect(encrypted).toContain(recipient);
    expect(encrypted).toContain('name: db'); // metadata readable, as the rule says
    writeFileSync(join(repo, 'secrets', 'by-sops.sops.yaml'), encrypted);
    const decrypted = await gw(['secret', 'decrypt', 'secrets/by-sops.sops.yaml']);
    expect(decrypted.code).toBe(0);
    expect(parse(decrypted.stdout)).toEqual(
      parse(readFileSync(join(repo, 'secrets', 'by-sops.yaml'), 'utf8')),
    );
  });

  it('encrypt follows the rule without --age; sops decrypts it; decrypt --out is refused beside it', async () => {
    // Numbers are quoted: a SopsSecret's values are text (a type label is not authenticated).
    const plain = `user: admin\npassword: ${PLANTED}\nport: "5432"\n`;
    writeFileSync(join(repo, 'secrets', 'app.sops.yaml'), plain);
    const enc = await gw(['secret', 'encrypt', 'secrets/app.sops.yaml', '--in-place']);
    expect(enc.code).toBe(0);
    expect(enc.stderr).toContain('.sops.yaml creation_rules[0]');
    expect(readFileSync(join(repo, 'secrets', 'app.sops.yaml'), 'utf8')).not.toContain(PLANTED);
    expect(parse(await sopsRun(['--decrypt', 'secrets/app.sops.yaml']))).toEqual(parse(plain));

    const beside = await gw([
      'secret',
      'decrypt',
      'secrets/app.sops.yaml',
      '--out',
      'secrets/app.plain.yaml',
    ]);
    expect([beside.code, beside.stderr]).toEqual([2, expect.stringContaining('beside the encrypted file')]);
    expect(() => lstatSync(join(repo, 'secrets', 'app.plain.yaml'))).toThrow();
    const out = join(home, 'app.plain.yaml');
    const written = await gw(['secret', 'decrypt', 'secrets/app.sops.yaml', '--out', out]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(parse(readFileSync(out, 'utf8'))).toEqual(parse(plain));
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('edit keeps unchanged values’ ciphertext, sops reads the result, and a refused edit writes nothing', async () => {
    const file = join(repo, 'secrets', 'app.sops.yaml');
    const before = readFileSync(file, 'utf8');
    const userCipher = /user: (ENC\[[^\]]+\])/.exec(before)![1]!;
    const edited = await gw(['secret', 'edit', 'secrets/app.sops.yaml'], {
      editWith: `user: admin\npassword: ${PLANTED}-rotated\nport: "5432"\n`,
    });
    expect(edited.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain(`user: ${userCipher}`);
    expect(after).not.toContain(PLANTED);
    expect(parse(await sopsRun(['--decrypt', 'secrets/app.sops.yaml']))).toEqual({
      user: 'admin',
      password: `${PLANTED}-rotated`,
      port: '5432',
    });
    // Not a map (and no terminal to edit again): PlaintextInvalid, the file as it was.
    const refused = await gw(['secret', 'edit', 'secrets/app.sops.yaml'], { editWith: `- ${PLANTED}\n` });
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringContaining('is not a map of keys to values'),
    ]);
    expect(refused.stderr).not.toContain(PLANTED);
    expect(readFileSync(file, 'utf8')).toBe(after);
    // A failing editor: EditorFailed, nothing written.
    const failing = await gw(['secret', 'edit', 'secrets/app.sops.yaml'], { env: { EDITOR: 'false' } });
    expect([failing.code, failing.stderr]).toEqual([2, expect.stringContaining('the editor exited with 1')]);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('edit of a new file encrypts it for its rule; sops edits what Groundwork wrote and Groundwork reads it back', async () => {
    const created = await gw(['secret', 'edit', 'secrets/new.sops.yaml'], {
      editWith: `token: ${PLANTED}\n`,
    });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('is new: encrypting for');
    const text = readFileSync(join(repo, 'secrets', 'new.sops.yaml'), 'utf8');
    expect(text).not.toContain(PLANTED);
    expect(parse(await sopsRun(['--decrypt', 'secrets/new.sops.yaml']))).toEqual({ token: PLANTED });
    // sops sets a value in it; Groundwork decrypts sops's version.
    await sopsRun(['set', 'secrets/new.sops.yaml', '["extra"]', '"by-sops"']);
    const back = await gw(['secret', 'decrypt', 'secrets/new.sops.yaml']);
    expect(parse(back.stdout)).toEqual({ token: PLANTED, extra: 'by-sops' });
  });
});
