import { readFile, stat } from 'node:fs/promises';
import type { AgeIdentities } from './age-identities.js';
import { sopsKeyMissing } from './sops-errors.js';

/** Largest key file read (an age identity line is 74 bytes; a file of many keys stays far below). */
const MAX_KEY_FILE_BYTES = 1024 * 1024;

/**
 * The age identities of a laptop's `plan`/`apply`/`drift`, as sops finds them: `SOPS_AGE_KEY`
 * (identities inline), then the file `SOPS_AGE_KEY_FILE` names. `file` (the encrypted file that
 * needs them) is the subject of SopsKeyMissing when neither is set or neither holds an identity;
 * the key file's content is never quoted.
 */
export async function identitiesFromEnv(env: NodeJS.ProcessEnv, file: string): Promise<AgeIdentities> {
  // Loaded when a secret needs a key: the age library (the noble curves) is most of a secret's cost.
  const { parseAgeIdentities } = await import('./age-identities.js');
  const inline = env.SOPS_AGE_KEY ? await parseAgeIdentities(env.SOPS_AGE_KEY) : undefined;
  if (inline?.identities.length) return inline;
  const path = env.SOPS_AGE_KEY_FILE;
  if (!path)
    throw sopsKeyMissing(
      file,
      'SOPS_AGE_KEY_FILE is not set, so there is no age identity to decrypt it with',
    );
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0 || size > MAX_KEY_FILE_BYTES)
    throw sopsKeyMissing(
      file,
      `SOPS_AGE_KEY_FILE (${path}) is not a readable file of at most ${MAX_KEY_FILE_BYTES} bytes`,
    );
  const ids = await parseAgeIdentities(await readFile(path, 'utf8'));
  if (!ids.identities.length)
    throw sopsKeyMissing(file, `SOPS_AGE_KEY_FILE (${path}) holds no AGE-SECRET-KEY-1… identity`);
  return ids;
}
