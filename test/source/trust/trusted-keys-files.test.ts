import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GroundworkError } from '../../../src/core/errors.js';
import { trustedKeysFromFiles } from '../../../src/source/trust/trusted-keys-files.js';
import { MAX_KEY_ENTRY_BYTES } from '../../../src/source/trust/trusted-keys.js';
import { sshKey } from '../../harness/signing.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-keys-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trustedKeysFromFiles (promote --trusted-keys)', () => {
  it('reads an allowed signers file', async () => {
    const file = join(dir, 'allowed_signers');
    writeFileSync(file, `${sshKey(dir, 'dana').allowedSigner('dana@example.com')}\n`);
    const keys = await trustedKeysFromFiles([file]);
    expect(keys.ssh.map((s) => s.principals)).toEqual([['dana@example.com']]);
  });

  it.each([
    [
      'an oversized file',
      () => {
        const f = join(dir, 'big');
        writeFileSync(f, `SECRET${'x'.repeat(MAX_KEY_ENTRY_BYTES)}`);
        return f;
      },
      /is larger than 262144 bytes/,
    ],
    ['a directory', () => dir, /is not a regular file/],
    ['a missing file', () => join(dir, 'nope'), /cannot be opened/],
    [
      'a file of junk',
      () => {
        const f = join(dir, 'junk');
        writeFileSync(f, 'SECRET junk line\n');
        return f;
      },
      /line 1: /,
    ],
  ])('%s is TrustedKeysInvalid, nothing quoted', async (_, make, message) => {
    const err = await trustedKeysFromFiles([make()]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('TrustedKeysInvalid');
    expect((err as GroundworkError).message).toMatch(message);
    expect((err as GroundworkError).toString()).not.toContain('SECRET');
  });
});
