import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { parseDocument, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import { parseAgeIdentities, type AgeIdentities } from '../../src/secrets/age-identities.js';
import { openText } from './open-text.js';
import { encryptSops } from '../../src/secrets/encrypt-sops.js';

const PLANTED = 'planted-Pa55w0rd-7f3a';
const FILE = 'secrets/htpasswd.sops.yaml';

let ours: AgeIdentities;
let theirs: AgeIdentities;
let recipient: string;

beforeAll(async () => {
  ours = await parseAgeIdentities(`# created: now\n# public key: x\n${await generateX25519Identity()}\n`);
  theirs = await parseAgeIdentities(await generateX25519Identity());
  recipient = ours.recipients[0]!;
});

/** The error `promise` rejects with, checked to be a GroundworkError that quotes no plaintext. */
async function failure(promise: Promise<unknown>): Promise<GroundworkError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundworkError);
  const e = err as GroundworkError;
  expect(`${e.toString()} ${e.fix ?? ''}`).not.toContain(PLANTED);
  expect(e.subject).toBe(FILE);
  return e;
}

/** Replaces the value at `path` of a YAML text. */
function edit(text: string, path: (string | number)[], value: unknown): string {
  const doc = parseDocument(text);
  doc.setIn(path, value);
  return doc.toString();
}

describe('sealSops then openSops', () => {
  it('round-trips YAML and JSON: strings, numbers, booleans, nesting, lists, empty strings, unencrypted keys', async () => {
    const tree = {
      htpasswd: `admin:${PLANTED}`,
      port: 5432,
      ratio: 0.25,
      enabled: true,
      empty: '',
      nested: { list: ['a', 'b', 3], deeper: { token: PLANTED } },
      note_unencrypted: 'readable',
      '10': 'integer-like key',
    };
    for (const format of ['yaml', 'json'] as const) {
      const text = await encryptSops(tree, { recipients: [recipient], format });
      expect(text).not.toContain(PLANTED);
      expect(text).toContain('readable'); // _unencrypted stays plain, as in sops
      expect(await openText(text, { file: FILE, identities: ours })).toEqual(tree);
    }
  });

  it('reads a Secret manifest encrypted with encrypted_regex: metadata readable, data decrypted', async () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pull', namespace: 'openshift-config' },
      stringData: { '.dockerconfigjson': `{"auths":{"r":{"auth":"${PLANTED}"}}}` },
    };
    const text = await encryptSops(secret, {
      recipients: [recipient],
      encryptedRegex: '^(data|stringData)$',
    });
    expect(text).toContain('openshift-config');
    expect(text).not.toContain(PLANTED);
    expect(await openText(text, { file: FILE, identities: ours })).toEqual(secret);
  });

  it('opens a file encrypted for several recipients with any one of them', async () => {
    const text = await encryptSops({ a: PLANTED }, { recipients: [theirs.recipients[0]!, recipient] });
    expect(await openText(text, { file: FILE, identities: ours })).toEqual({ a: PLANTED });
    expect(await openText(text, { file: FILE, identities: theirs })).toEqual({ a: PLANTED });
  });

  it('refuses a changed value (SopsMacMismatch, naming the key path)', async () => {
    const text = await encryptSops({ a: PLANTED, b: 'other' }, { recipients: [recipient] });
    const other = await encryptSops({ a: 'x', b: 'y' }, { recipients: [recipient] });
    const foreign = parseDocument(other).get('a') as string;
    const e = await failure(openText(edit(text, ['a'], foreign), { file: FILE, identities: ours }));
    expect(e.code).toBe('SopsMacMismatch');
    expect(e.message).toContain('value at a does not verify');
  });

  it('refuses values swapped between keys (the key path is the additional data)', async () => {
    const text = await encryptSops({ a: PLANTED, b: 'other' }, { recipients: [recipient] });
    const doc = parseDocument(text);
    const [a, b] = [doc.get('a'), doc.get('b')];
    doc.set('a', b);
    doc.set('b', a);
    const e = await failure(openText(doc.toString(), { file: FILE, identities: ours }));
    expect(e.code).toBe('SopsMacMismatch');
  });

  it('refuses a removed value, an added plaintext value and a changed unencrypted value (the MAC covers them)', async () => {
    const text = await encryptSops(
      { a: PLANTED, b: 'other', c_unencrypted: 'plain' },
      { recipients: [recipient] },
    );
    const removed = parseDocument(text);
    removed.delete('b');
    const added = edit(text, ['d_unencrypted'], 'injected');
    const changed = edit(text, ['c_unencrypted'], 'changed');
    for (const bad of [removed.toString(), added, changed]) {
      const e = await failure(openText(bad, { file: FILE, identities: ours }));
      expect(e.code).toBe('SopsMacMismatch');
      expect(e.message).toContain('MAC does not match');
    }
  });

  it('refuses a changed lastmodified or mac', async () => {
    const text = await encryptSops({ a: PLANTED }, { recipients: [recipient] });
    const other = await encryptSops({ a: PLANTED }, { recipients: [recipient] });
    const badTime = edit(text, ['sops', 'lastmodified'], '2001-01-01T00:00:00Z');
    const badMac = edit(text, ['sops', 'mac'], parseDocument(other).getIn(['sops', 'mac']));
    for (const bad of [badTime, badMac]) {
      const e = await failure(openText(bad, { file: FILE, identities: ours }));
      expect(e.code).toBe('SopsMacMismatch');
      expect(e.message).toContain('MAC does not verify');
    }
  });

  it('a file for another key is SopsNoMatchingKey listing both recipients', async () => {
    const text = await encryptSops({ a: PLANTED }, { recipients: [theirs.recipients[0]!] });
    const e = await failure(openText(text, { file: FILE, identities: ours }));
    expect(e.code).toBe('SopsNoMatchingKey');
    expect(e.message).toContain(theirs.recipients[0]);
    expect(e.message).toContain(recipient);
    expect(e.fix).toContain(recipient);
  });

  it('a recipient relabelled as ours whose key does not open is SopsMacMismatch, not a wrong-key error', async () => {
    const text = await encryptSops({ a: PLANTED }, { recipients: [theirs.recipients[0]!] });
    const relabelled = edit(text, ['sops', 'age', 0, 'recipient'], recipient);
    const e = await failure(openText(relabelled, { file: FILE, identities: ours }));
    expect(e.code).toBe('SopsMacMismatch');
    expect(e.message).toContain('data key');
  });

  it('no identity is SopsKeyMissing; a key file of no identity gives none', async () => {
    const text = await encryptSops({ a: PLANTED }, { recipients: [recipient] });
    const none = await parseAgeIdentities(`# nothing here\nAGE-SECRET-KEY-1NOTAKEY\n${PLANTED}\n`);
    expect(none.identities).toEqual([]);
    const e = await failure(openText(text, { file: FILE, identities: none }));
    expect(e.code).toBe('SopsKeyMissing');
  });

  it('hostile and malformed files are SopsFileInvalid, quoting no value', async () => {
    const good = await encryptSops({ a: PLANTED }, { recipients: [recipient] });
    const cases: [string, string][] = [
      [stringify({ a: PLANTED }), 'no `sops` metadata'],
      [edit(good, ['a'], PLANTED), 'not an ENC[AES256_GCM'],
      [`${good}---\nb: 1\n`, 'not one YAML or JSON document'],
      [`a: [${PLANTED}\n`, 'not YAML or JSON'],
      [`- ${PLANTED}\n`, 'not a map'],
      [edit(good, ['sops', 'age'], []), 'no age recipient'],
      [edit(good, ['sops', 'mac'], 7), 'metadata is not valid'],
      [edit(good, ['sops', 'encrypted_comment_regex'], 'x'), 'comment rules'],
      [edit(good, ['sops', 'encrypted_regex'], '(['), 'Go RE2 syntax'],
      // JavaScript would compile these; sops (Go's RE2) does not, so neither does Groundwork.
      [edit(good, ['sops', 'encrypted_regex'], '(?<=x)a'), 'Go RE2 syntax'],
      [edit(good, ['sops', 'unencrypted_regex'], '(a)\\1'), 'Go RE2 syntax'],
      [edit(good, ['sops', 'encrypted_regex'], `^(${'a|'.repeat(600)}b)$`), 'longer than 1024'],
      [edit(good, ['sops', 'encrypted_regex'], '(.*){1000}'), 'RE2 instructions'],
      [`x_unencrypted: &a ${PLANTED}\ny: *a\n${good}`, 'uses a YAML alias'],
      ['x'.repeat(3 * 1024 * 1024), 'larger than'],
    ];
    for (const [text, message] of cases) {
      const e = await failure(openText(text, { file: FILE, identities: ours }));
      expect([e.code, e.message]).toEqual(['SopsFileInvalid', expect.stringContaining(message)]);
    }
  });

  it('reads identities the way age-keygen writes them, and skips what is not one', async () => {
    const id = await generateX25519Identity();
    const parsed = await parseAgeIdentities(
      `# created: 2026-01-01\r\n# public key: age1x\r\n  ${id}  \r\n\r\n`,
    );
    expect(parsed).toEqual({ identities: [id], recipients: [await identityToRecipient(id)] });
  });
});
