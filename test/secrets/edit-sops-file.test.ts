// secret edit's decisions, with real files and a real key; the editor is a function (the CLI runs
// a real one: test/cli/secret-cli.e2e.test.ts).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAgeIdentities } from '../../src/secrets/age-identities.js';
import { editSopsFile } from '../../src/secrets/edit-sops-file.js';
import { encryptSops } from '../../src/secrets/encrypt-sops.js';
import { openText } from './open-text.js';

let identity: string;
let recipient: string;
let dir: string;
const env = () => ({ SOPS_AGE_KEY: identity, XDG_RUNTIME_DIR: dir });
const notes: string[] = [];

beforeAll(async () => {
  identity = await generateX25519Identity();
  recipient = await identityToRecipient(identity);
  dir = mkdtempSync(join(tmpdir(), 'gw-edit-'));
});

async function encrypted(name: string, tree: Record<string, unknown>): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, await encryptSops(tree, { recipients: [recipient] }));
  return file;
}

const editTo = (text: string) => async (copy: string) => writeFileSync(copy, text);

async function opened(file: string) {
  return openText(readFileSync(file, 'utf8'), { file, identities: await parseAgeIdentities(identity) });
}

describe('editSopsFile', () => {
  it('an edit keeps unchanged values’ ciphertext and recipients; the copy is wiped', async () => {
    const file = await encrypted('a.sops.yaml', { user: 'admin', password: 'old-pass' });
    const before = readFileSync(file, 'utf8');
    let copyDir = '';
    const outcome = await editSopsFile({
      file,
      env: env(),
      flags: {},
      note: (l) => notes.push(l),
      edit: async (copy) => {
        copyDir = join(copy, '..');
        expect(parse(readFileSync(copy, 'utf8'))).toEqual({ user: 'admin', password: 'old-pass' });
        writeFileSync(copy, 'user: admin\npassword: new-pass\nadded: x\n');
      },
    });
    expect(outcome).toBe('written');
    const after = readFileSync(file, 'utf8');
    const cipher = (text: string, key: string) => new RegExp(`${key}: (ENC\\[[^\\]]+\\])`).exec(text)![1];
    expect(cipher(after, 'user')).toBe(cipher(before, 'user'));
    expect(cipher(after, 'password')).not.toBe(cipher(before, 'password'));
    expect(after).toContain(recipient);
    expect(await opened(file)).toEqual({ user: 'admin', password: 'new-pass', added: 'x' });
    expect(copyDir.startsWith(dir)).toBe(true);
    expect(existsSync(copyDir)).toBe(false);
  });

  it('an unchanged copy writes nothing; a refused edit is asked again, or thrown with the file as it was', async () => {
    const file = await encrypted('b.sops.yaml', { token: 'abc1' });
    const before = readFileSync(file, 'utf8');
    expect(await editSopsFile({ file, env: env(), flags: {}, note: () => {}, edit: async () => {} })).toBe(
      'unchanged',
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    await expect(
      editSopsFile({ file, env: env(), flags: {}, note: () => {}, edit: editTo('- not a map\n') }),
    ).rejects.toThrow(expect.objectContaining({ code: 'PlaintextInvalid' }));
    await expect(
      editSopsFile({ file, env: env(), flags: {}, note: () => {}, edit: editTo('n: 5\n') }),
    ).rejects.toThrow(/not encrypted as text/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // With a terminal: the same copy is edited again, then written.
    const texts = ['a: 1\na: 2\n', 'token: abc2\n'];
    const problems: string[] = [];
    const outcome = await editSopsFile({
      file,
      env: env(),
      flags: {},
      note: () => {},
      edit: async (copy) => writeFileSync(copy, texts.shift()!),
      again: async (problem) => (problems.push(problem.message), true),
    });
    expect(outcome).toBe('written');
    expect(problems).toEqual([expect.stringContaining('has a key twice (line 2)')]);
    expect(await opened(file)).toEqual({ token: 'abc2' });
  });

  it('a file changed while it was being edited is not overwritten (EditConflict)', async () => {
    const file = await encrypted('c.sops.yaml', { token: 'one1' });
    const theirs = await encryptSops({ token: 'theirs' }, { recipients: [recipient] });
    await expect(
      editSopsFile({
        file,
        env: env(),
        flags: {},
        note: () => {},
        edit: async (copy) => {
          writeFileSync(file, theirs);
          writeFileSync(copy, 'token: mine\n');
        },
      }),
    ).rejects.toThrow(expect.objectContaining({ code: 'EditConflict' }));
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a new file is encrypted for --age (or its rule) and created; a file with comments is refused', async () => {
    const file = join(dir, 'new.sops.yaml');
    const outcome = await editSopsFile({
      file,
      env: env(),
      flags: { age: recipient },
      note: (l) => notes.push(l),
      edit: async (copy) => {
        expect(readFileSync(copy, 'utf8')).toContain('example: replace me');
        writeFileSync(copy, 'api: key1\n');
      },
    });
    expect(outcome).toBe('created');
    expect(await opened(file)).toEqual({ api: 'key1' });
    const commented = join(dir, 'commented.sops.yaml');
    writeFileSync(
      commented,
      (await encryptSops({ a: 'b' }, { recipients: [recipient] })).replace(/^/, '# ENC[AES256_GCM,data:x]\n'),
    );
    await expect(
      editSopsFile({ file: commented, env: env(), flags: {}, note: () => {}, edit: editTo('a: c\n') }),
    ).rejects.toThrow(/comment/);
    await expect(
      editSopsFile({
        file: join(dir, 'x.txt'),
        env: env(),
        flags: { age: recipient },
        note: () => {},
        edit: editTo(''),
      }),
    ).rejects.toThrow(/is not named .yaml, .yml or .json/);
  });
});
