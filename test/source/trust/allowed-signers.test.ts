import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllowedSigners } from '../../../src/source/trust/allowed-signers.js';
import { sshKey } from '../../harness/signing.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-allowed-signers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const alice = sshKey(dir, 'alice');
const key = alice.publicLine.split(' ').slice(0, 2).join(' ');

describe('parseAllowedSigners', () => {
  it('reads principals, options and the key; skips comments and blank lines', () => {
    const { signers, problems } = parseAllowedSigners(
      [
        '# team keys',
        '',
        `"alice@example.com,ci@acme" namespaces="git,file",valid-after="20240101",valid-before="20300101120000" ${key} laptop`,
        `bob@example.com ${key}`,
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(signers).toHaveLength(2);
    expect(signers[0]).toMatchObject({
      principals: ['alice@example.com', 'ci@acme'],
      namespaces: ['git', 'file'],
      validAfter: new Date('2024-01-01T00:00:00Z'),
      validBefore: new Date('2030-01-01T12:00:00Z'),
    });
    expect(signers[0]!.key.type).toBe('ssh-ed25519');
    expect(signers[1]).toMatchObject({ principals: ['bob@example.com'] });
    expect(signers[1]!.namespaces).toBeUndefined();
  });

  it('names each unreadable line by number and reason, never by content (hostile)', () => {
    const secretish = 'TOPSECRET-CONTENT';
    const { signers, problems } = parseAllowedSigners(
      [
        `${secretish}`,
        `a@x cert-authority ${key}`,
        `a@x namespaces="git ${key}`,
        `a@x valid-after="tomorrow" ${key}`,
        `a@x frobnicate ${key}`,
        `a@x ssh-ed25519 ${secretish}`,
        `a@x ssh-rsa ${key.split(' ')[1]}`,
        `a@x sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t`,
        `"a b\u0007c"@x ${key}`,
        `a@x ${'A'.repeat(20_000)}`,
        `alice@example.com ${key}`,
      ].join('\n'),
    );
    expect(signers).toHaveLength(1);
    expect(problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(problems[1]!.reason).toMatch(/cert-authority/);
    expect(problems[2]!.reason).toBe('unbalanced quotes');
    expect(problems[3]!.reason).toMatch(/valid-after is not YYYYMMDD/);
    expect(problems[6]!.reason).toBe('the key type does not match the key');
    expect(problems[7]!.reason).toBe('unsupported key type');
    expect(problems[8]!.reason).toMatch(/a principal holds characters/);
    expect(problems[9]!.reason).toBe('line too long');
    expect(JSON.stringify(problems)).not.toContain(secretish);
  });

  it('refuses a date that does not exist', () => {
    const { problems } = parseAllowedSigners(`a@x valid-before="20250231" ${key}`);
    expect(problems).toEqual([{ line: 1, reason: 'valid-before is not YYYYMMDD[HHMM[SS]]' }]);
  });
});
