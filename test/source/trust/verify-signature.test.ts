import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import { splitCommit, splitTag } from '../../../src/source/trust/signed-object.js';
import {
  MAX_KEY_ENTRY_BYTES,
  parseTrustedKeys,
  type TrustedKeys,
} from '../../../src/source/trust/trusted-keys.js';
import { printable, verifySignature } from '../../../src/source/trust/verify-signature.js';
import { createGitRepo, type GitRepo } from '../../harness/git-repo.js';
import {
  gpgKey,
  revokeGpgKey,
  signedCommit,
  signedTag,
  trustedSigners,
  sshKey,
  type GpgKey,
  type SshKey,
} from '../../harness/signing.js';

// Real commits signed by `git commit -S` with gpg and ssh-keygen keys, read raw (`git cat-file`)
// and checked against trusted keys: the decision without the network.

let root: string;
let repo: GitRepo;
let alice: GpgKey;
let mallory: GpgKey;
let carol: SshKey;
let eve: SshKey;
let keys: TrustedKeys;
const NOW = new Date();

const raw = (type: 'commit' | 'tag', oid: string): string =>
  execFileSync('git', ['cat-file', type, oid], { cwd: repo.workDir, encoding: 'latin1' });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'gw-verify-signature-'));
  repo = createGitRepo({ root, name: 'platform' });
  ({ alice, carol, keys } = await trustedSigners(root));
  mallory = gpgKey(root, 'mallory');
  eve = sshKey(root, 'eve');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('verifySignature over commits signed by git', () => {
  it('OpenPGP: a trusted key verifies, with its fingerprint and user id', async () => {
    repo.writeFiles({ a: '1' });
    const oid = signedCommit(repo, 'pgp', alice);
    const verdict = await verifySignature(splitCommit(raw('commit', oid)), keys, NOW);
    expect(verdict).toEqual({
      verified: true,
      format: 'openpgp',
      keyId: alice.fingerprint,
      signer: 'alice <alice@example.com>',
    });
  });

  it('SSH: a trusted key verifies, with its SHA256 fingerprint and principal', async () => {
    repo.writeFiles({ a: '2' });
    const oid = signedCommit(repo, 'ssh', carol);
    const verdict = await verifySignature(splitCommit(raw('commit', oid)), keys, NOW);
    expect(verdict).toMatchObject({ verified: true, format: 'ssh', signer: 'carol@example.com' });
    expect(verdict.keyId).toMatch(/^SHA256:/);
  });

  it('unsigned, unknown keys (both formats) and no keys at all are refused', async () => {
    repo.writeFiles({ a: '3' });
    const unsigned = repo.commit('plain');
    expect(await verifySignature(splitCommit(raw('commit', unsigned)), keys, NOW)).toMatchObject({
      verified: false,
      problem: 'Unsigned',
    });
    const byMallory = signedCommit(repo, 'mallory', mallory);
    const m = await verifySignature(splitCommit(raw('commit', byMallory)), keys, NOW);
    expect(m).toMatchObject({ verified: false, problem: 'UnknownKey', format: 'openpgp' });
    expect(mallory.fingerprint.endsWith(m.keyId!)).toBe(true);
    const byEve = signedCommit(repo, 'eve', eve);
    expect(await verifySignature(splitCommit(raw('commit', byEve)), keys, NOW)).toMatchObject({
      verified: false,
      problem: 'UnknownKey',
      format: 'ssh',
    });
    expect(await verifySignature(splitCommit(raw('commit', byEve)), undefined, NOW)).toMatchObject({
      verified: false,
      problem: 'NoTrustedKeys',
    });
  });

  it('a tampered commit (content changed under a good signature) is BadSignature, both formats', async () => {
    for (const signer of [alice, carol]) {
      repo.writeFiles({ a: `4-${signer === alice ? 'pgp' : 'ssh'}` });
      const text = raw('commit', signedCommit(repo, 'to tamper', signer));
      const tampered = text.replace('to tamper', 'to tamperX');
      expect(await verifySignature(splitCommit(tampered), keys, NOW)).toMatchObject({
        verified: false,
        problem: 'BadSignature',
      });
    }
  });

  it('an SSH key trusted only for another namespace, or outside its validity window, is refused', async () => {
    repo.writeFiles({ a: '5' });
    const oid = signedCommit(repo, 'ssh', carol);
    const obj = splitCommit(raw('commit', oid));
    const fileOnly = await parseTrustedKeys(
      { s: carol.allowedSigner('carol@example.com', 'namespaces="file"') },
      'k',
    );
    expect(await verifySignature(obj, fileOnly, NOW)).toMatchObject({
      verified: false,
      problem: 'UnknownKey',
    });
    const retired = await parseTrustedKeys(
      { s: carol.allowedSigner('carol@example.com', 'valid-before="20200101"') },
      'k',
    );
    expect(await verifySignature(obj, retired, NOW)).toMatchObject({
      verified: false,
      problem: 'ExpiredKey',
      signer: 'carol@example.com',
    });
  });

  it('an expired OpenPGP key is refused although it was valid when it signed', async () => {
    const old = gpgKey(root, 'old', { expire: '1d', fakedTime: '20200101T000000' });
    repo.writeFiles({ a: '6' });
    const oid = signedCommit(repo, 'old key', old);
    const trusted = await parseTrustedKeys({ 'old.asc': old.publicKey }, 'k');
    expect(await verifySignature(splitCommit(raw('commit', oid)), trusted, NOW)).toMatchObject({
      verified: false,
      problem: 'ExpiredKey',
      keyId: old.fingerprint,
    });
    // The same signature checked inside the key's lifetime verifies: the refusal is the expiry.
    expect(
      await verifySignature(splitCommit(raw('commit', oid)), trusted, new Date('2020-01-01T12:00:00Z')),
    ).toMatchObject({ verified: true });
  });

  it('a revoked OpenPGP key is refused', async () => {
    const gone = gpgKey(root, 'gone');
    repo.writeFiles({ a: '7' });
    const oid = signedCommit(repo, 'before revocation', gone);
    const trusted = await parseTrustedKeys({ 'gone.asc': revokeGpgKey(gone) }, 'k');
    expect(await verifySignature(splitCommit(raw('commit', oid)), trusted, NOW)).toMatchObject({
      verified: false,
      problem: 'RevokedKey',
    });
  });

  it('signed tags verify as tags (OpenPGP and SSH)', async () => {
    repo.writeFiles({ a: '8' });
    repo.commit('unsigned commit under the tags');
    signedTag(repo, 'v-pgp', alice);
    signedTag(repo, 'v-ssh', carol);
    for (const name of ['v-pgp', 'v-ssh']) {
      const oid = repo.git('rev-parse', name);
      expect(await verifySignature(splitTag(raw('tag', oid)), keys, NOW)).toMatchObject({ verified: true });
    }
  });
});

describe('malformed signature blocks (hostile): Malformed, nothing of the block echoed', () => {
  const commit = (sig: string[]) =>
    `tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\ngpgsig ${sig.join('\n ')}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nm\n`;
  it.each([
    ['OpenPGP junk', ['-----BEGIN PGP SIGNATURE-----', '', 'SECRETJUNKxx==', '-----END PGP SIGNATURE-----']],
    ['SSH junk', ['-----BEGIN SSH SIGNATURE-----', 'U0VDUkVUSlVOSw==', '-----END SSH SIGNATURE-----']],
    [
      'an oversized OpenPGP block',
      [
        '-----BEGIN PGP SIGNATURE-----',
        ...Array(2000).fill('SECRET'.repeat(10)),
        '-----END PGP SIGNATURE-----',
      ],
    ],
  ])('%s', async (_, sig) => {
    const verdict = await verifySignature(splitCommit(commit(sig)), keys, NOW);
    expect(verdict).toMatchObject({ verified: false, problem: 'Malformed' });
    expect(JSON.stringify(verdict)).not.toMatch(/SECRET|U0VDUkVU/);
  });

  it('an X.509 signature is UnsupportedFormat', async () => {
    const verdict = await verifySignature(
      splitCommit(commit(['-----BEGIN SIGNED MESSAGE-----', 'x', '-----END SIGNED MESSAGE-----'])),
      keys,
      NOW,
    );
    expect(verdict).toMatchObject({ verified: false, problem: 'UnsupportedFormat', format: 'x509' });
  });
});

describe('parseTrustedKeys (hostile entries): clear errors, nothing echoed', () => {
  const fails = async (entries: Record<string, string>): Promise<GroundworkError> => {
    const err = await parseTrustedKeys(entries, 'secret/ns/keys').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('TrustedKeysInvalid');
    return err as GroundworkError;
  };

  it('an oversized entry is refused by size before it is parsed', async () => {
    const err = await fails({ big: `SECRET-${'x'.repeat(MAX_KEY_ENTRY_BYTES)}` });
    expect(err.message).toMatch(/key "big": is \d+ bytes \(at most 262144\)/);
    expect(err.message).not.toContain('SECRET');
  });

  it('a private key is refused', async () => {
    const priv = execFileSync(
      'gpg',
      ['--batch', '--homedir', alice.home, '--armor', '--export-secret-keys', alice.fingerprint],
      { encoding: 'utf8' },
    );
    const err = await fails({ 'alice.asc': priv });
    expect(err.message).toContain('holds a private key');
    expect(err.toString()).not.toContain(priv.split('\n')[2]!);
  });

  it('a broken keyring and a broken signers line name the entry and line only', async () => {
    const junk = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nSECRETJUNK\n-----END PGP PUBLIC KEY BLOCK-----\n';
    expect((await fails({ k: junk })).message).toMatch(/not a readable OpenPGP keyring/);
    const err = await fails({ allowed: `ok@x ${carol.publicLine}\nSECRETJUNK here there\n` });
    expect(err.message).toMatch(/key "allowed": line 2: /);
    expect(err.toString()).not.toContain('SECRETJUNK');
  });

  it('an empty set is refused', async () => {
    expect((await fails({ a: '# nothing\n' })).message).toContain('holds no key');
  });

  it('a user id with control and bidi characters is printed safely', () => {
    expect(printable('evil\u001b[31m\u202e <a@x>')).toBe('evil?[31m? <a@x>');
    expect(printable('x'.repeat(300))).toHaveLength(129);
  });
});
