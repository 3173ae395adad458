import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { GroundworkError } from '../../core/errors.js';
import { MAX_KEY_ENTRY_BYTES, parseTrustedKeys, type TrustedKeys } from './trusted-keys.js';

/**
 * Trusted keys from files on this machine (`groundwork promote --trusted-keys <file>...`): each an
 * armored OpenPGP keyring or an allowed signers file, as in the agent's Secret. A file past
 * `MAX_KEY_ENTRY_BYTES` is refused before it is read in full; nothing of a file is quoted.
 */
export async function trustedKeysFromFiles(paths: readonly string[]): Promise<TrustedKeys> {
  const entries: Record<string, string> = {};
  for (const [i, path] of paths.entries()) {
    let text: string;
    const handle = await open(path, 'r').catch((err: unknown) => {
      throw new GroundworkError({
        code: 'TrustedKeysInvalid',
        subject: `--trusted-keys ${path}`,
        message: 'cannot be opened',
        fix: 'name a readable file holding armored OpenPGP public keys or allowed signers',
        cause: err,
      });
    });
    try {
      const regular = (await handle.stat()).isFile();
      const buf = Buffer.alloc(MAX_KEY_ENTRY_BYTES + 1);
      const { bytesRead } = regular ? await handle.read(buf, 0, buf.length, 0) : { bytesRead: 0 };
      if (!regular || bytesRead > MAX_KEY_ENTRY_BYTES)
        throw new GroundworkError({
          code: 'TrustedKeysInvalid',
          subject: `--trusted-keys ${path}`,
          message:
            bytesRead > MAX_KEY_ENTRY_BYTES
              ? `is larger than ${MAX_KEY_ENTRY_BYTES} bytes`
              : 'is not a regular file',
          fix: 'export only the public keys that sign commits (gpg --armor --export <id>)',
        });
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
    entries[`${i}-${basename(path)}`] = text;
  }
  return parseTrustedKeys(entries, `--trusted-keys ${paths.join(', ')}`);
}
