import { Decrypter, armor } from 'age-encryption';
import type { AgeIdentities } from './age-identities.js';
import { sopsFileInvalid, sopsMacMismatch, sopsNoMatchingKey } from './sops-errors.js';
import type { AgeKey } from './sops-metadata.js';

/** The data key's length: AES-256. */
export const DATA_KEY_BYTES = 32;

/**
 * The file's 32-byte data key, from the first of its age keys one of `ids` opens (sops
 * `age/keysource.go`: the raw key, age-encrypted and armored). Errors, each naming `file`:
 * SopsNoMatchingKey when no recipient of the file is one of ours (listing both sides' public
 * keys, so "which key is this for" needs no guessing: the complaint under Flux's
 * "0 successful groups required, got 0"); SopsMacMismatch when one of ours is listed and its copy
 * of the key does not open (changed or swapped); SopsFileInvalid for a key of the wrong length.
 */
export async function unwrapDataKey(
  file: string,
  keys: readonly AgeKey[],
  ids: AgeIdentities,
): Promise<Uint8Array> {
  const decrypter = new Decrypter();
  for (const identity of ids.identities) decrypter.addIdentity(identity);
  for (const key of keys) {
    let dataKey: Uint8Array;
    try {
      dataKey = await decrypter.decrypt(armor.decode(`${key.enc.trim()}\n`));
    } catch {
      continue; // not for us, or damaged: decided below from the recipients
    }
    if (dataKey.length !== DATA_KEY_BYTES)
      throw sopsFileInvalid(file, `its data key is ${dataKey.length} bytes, not ${DATA_KEY_BYTES}`);
    return dataKey;
  }
  const listed = keys.map((k) => k.recipient);
  const ours = listed.filter((r) => ids.recipients.includes(r));
  if (ours.length)
    throw sopsMacMismatch(file, `its data key for ${ours.join(', ')} does not decrypt with that identity`);
  throw sopsNoMatchingKey(file, { fileRecipients: listed, ours: ids.recipients });
}
