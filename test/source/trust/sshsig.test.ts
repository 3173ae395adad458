import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSshSignature, verifySshSignature } from '../../../src/source/trust/sshsig.js';
import { SshFormatError } from '../../../src/source/trust/ssh-wire.js';
import { sshKey, sshSign } from '../../harness/signing.js';

// Signatures made by the real `ssh-keygen -Y sign` (openssh), verified by our SSHSIG reader.
const dir = mkdtempSync(join(tmpdir(), 'gw-sshsig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MESSAGE = 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\n\nsigned\n';

describe('SSHSIG from ssh-keygen -Y sign', () => {
  const cases = [
    ['ed25519', 'ed25519', undefined, 'ssh-ed25519'],
    ['ecdsa-256', 'ecdsa', 256, 'ecdsa-sha2-nistp256'],
    ['ecdsa-384', 'ecdsa', 384, 'ecdsa-sha2-nistp384'],
    ['ecdsa-521', 'ecdsa', 521, 'ecdsa-sha2-nistp521'],
    ['rsa-2048', 'rsa', 2048, 'ssh-rsa'],
  ] as const;
  it.each(cases)('%s: verifies, and fails for another message or namespace', (name, type, bits, keyType) => {
    const key = sshKey(dir, name, type, bits);
    const sig = parseSshSignature(sshSign(key, MESSAGE));
    expect(sig.publicKey.type).toBe(keyType);
    expect(sig.namespace).toBe('git');
    expect(sig.publicKey.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(verifySshSignature(sig, MESSAGE, 'git')).toBe(true);
    expect(verifySshSignature(sig, MESSAGE.replace('signed', 'signeD'), 'git')).toBe(false);
    expect(verifySshSignature(sig, MESSAGE, 'file')).toBe(false);
  });

  it('a signature made for another namespace is no git signature', () => {
    const key = sshKey(dir, 'ns', 'ed25519');
    const sig = parseSshSignature(sshSign(key, MESSAGE, 'file'));
    expect(verifySshSignature(sig, MESSAGE, 'git')).toBe(false);
  });

  it('the fingerprint is ssh-keygen -l’s', async () => {
    const { execFileSync } = await import('node:child_process');
    const key = sshKey(dir, 'fp', 'ed25519');
    const printed = execFileSync('ssh-keygen', ['-l', '-f', `${key.privateKey}.pub`], { encoding: 'utf8' });
    expect(printed).toContain(parseSshSignature(sshSign(key, MESSAGE)).publicKey.fingerprint);
  });
});

describe('malformed SSH signatures (hostile): a short reason, never the input', () => {
  const armor = (b64: string) => `-----BEGIN SSH SIGNATURE-----\n${b64}\n-----END SSH SIGNATURE-----\n`;
  const reasonOf = (text: string): string => {
    try {
      parseSshSignature(text);
    } catch (err) {
      expect(err).toBeInstanceOf(SshFormatError);
      return (err as Error).message;
    }
    throw new Error('parsed');
  };
  it.each([
    ['no armor', 'U1NIU0lH', 'bad armor'],
    ['not base64', armor('!!not*base64!!'), 'bad base64'],
    ['wrong magic', armor(Buffer.from('NOTSIG\0\0\0\x01').toString('base64')), 'not an SSHSIG blob'],
    ['version 2', armor(Buffer.from('SSHSIG\0\0\0\x02').toString('base64')), 'unsupported SSHSIG version'],
    ['truncated', armor(Buffer.from('SSHSIG\0\0\0\x01\0\0\xff\xff').toString('base64')), 'truncated'],
    ['oversized', armor('A'.repeat(70_000)), 'signature too large'],
  ])('%s', (_, text, reason) => {
    const got = reasonOf(text);
    expect(got).toBe(reason);
  });

  it('a signature with bytes appended after it', () => {
    const key = sshKey(dir, 'trail', 'ed25519');
    const good = sshSign(key, MESSAGE);
    const body = good.split('\n').slice(1, -2).join('');
    const longer = Buffer.concat([Buffer.from(body, 'base64'), Buffer.from('extra')]).toString('base64');
    expect(reasonOf(armor(longer))).toBe('trailing bytes after the signature');
  });
});
