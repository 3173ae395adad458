import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blobType, fingerprint, hostKeyAlgorithms, hostKeys } from '../../src/source/ssh/known-hosts.js';

// Keys and hashed names made by the real ssh-keygen; our reading checked against its answers.
const dir = mkdtempSync(join(tmpdir(), 'gw-known-hosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = (name: string, type = 'ed25519') => {
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', name, '-f', join(dir, name)]);
  return readFileSync(join(dir, `${name}.pub`), 'utf8')
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ');
};
const a = key('a');
const b = key('b', 'ecdsa');
const blob = (line: string) => Buffer.from(line.split(' ')[1]!, 'base64');

describe('hostKeys', () => {
  it('finds the keys of a host by name, port, pattern and negation', () => {
    const text = [
      '# comment',
      `github.com,140.82.121.3 ${a}`,
      `[git.example]:2222 ${b}`,
      `*.corp.example,!evil.corp.example ${a}`,
      `@cert-authority *.ca.example ${a}`,
      'garbage line',
      `broken.example ssh-ed25519 !!notbase64`,
    ].join('\n');
    expect(hostKeys(text, 'github.com').pinned.map((k) => k.type)).toEqual(['ssh-ed25519']);
    expect(hostKeys(text, '140.82.121.3').pinned).toHaveLength(1);
    expect(hostKeys(text, 'git.example').pinned).toHaveLength(0); // pinned for port 2222 only
    expect(hostKeys(text, '[git.example]:2222').pinned.map((k) => k.type)).toEqual(['ecdsa-sha2-nistp256']);
    expect(hostKeys(text, 'git.corp.example').pinned).toHaveLength(1);
    expect(hostKeys(text, 'evil.corp.example').pinned).toHaveLength(0);
    expect(hostKeys(text, 'x.ca.example')).toMatchObject({ pinned: [], certAuthorities: 1 });
    expect(hostKeys(text, 'broken.example').pinned).toHaveLength(0);
  });

  it('reads names hashed by ssh-keygen -H', () => {
    const file = join(dir, 'known_hosts');
    execFileSync('sh', [
      '-c',
      `printf '%s\\n' '[git.example]:2222 ${b}' > ${file} && ssh-keygen -q -H -f ${file}`,
    ]);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\|1\|/);
    expect(hostKeys(text, '[git.example]:2222').pinned[0]!.blob.equals(blob(b))).toBe(true);
    expect(hostKeys(text, 'git.example').pinned).toHaveLength(0);
  });

  it('keeps @revoked keys apart', () => {
    const keys = hostKeys(`h ${a}\n@revoked h ${b}\n`, 'h');
    expect(keys.pinned).toHaveLength(1);
    expect(keys.revoked[0]!.blob.equals(blob(b))).toBe(true);
  });

  it('refuses a key whose blob names another type than its line', () => {
    expect(hostKeys(`h ssh-rsa ${a.split(' ')[1]}\n`, 'h').pinned).toHaveLength(0);
  });
});

describe('fingerprint, blobType, hostKeyAlgorithms', () => {
  it('print what ssh-keygen -l prints', () => {
    const expected = execFileSync('ssh-keygen', ['-lf', '-'], { input: `${a}\n`, encoding: 'utf8' }).split(
      ' ',
    )[1];
    expect(fingerprint(blob(a))).toBe(expected);
    expect(blobType(blob(b))).toBe('ecdsa-sha2-nistp256');
    expect(blobType(Buffer.from('xx'))).toBe('unknown');
  });

  it('offers modern algorithms only, RSA with SHA-2 signatures', () => {
    expect(hostKeyAlgorithms(['ssh-rsa', 'ssh-ed25519'])).toEqual([
      'ssh-ed25519',
      'rsa-sha2-512',
      'rsa-sha2-256',
    ]);
    expect(hostKeyAlgorithms(['ssh-dss', 'sk-ssh-ed25519@openssh.com'])).toEqual([]);
  });
});
