import { createHash, timingSafeEqual } from 'node:crypto';
import type { AgeIdentities } from './age-identities.js';
import { unwrapDataKey } from './data-key.js';
import { openEnc, parseEnc, type EncType } from './enc-value.js';
import { macBytes, MAC_ONLY_ENCRYPTED_INIT, macTime } from './mac.js';
import { sopsFileInvalid, sopsKeyMissing, sopsMacMismatch } from './sops-errors.js';
import { parseSopsDocument, walkLeaves, where } from './sops-document.js';
import { ageKeysOf, cryptRules, isEncryptedPath, type CryptRules } from './sops-metadata.js';

/** What to decrypt with, and the file's name for messages. */
export interface DecryptSopsOptions {
  /** The file's path in the repository: the subject of every error. */
  file: string;
  identities: AgeIdentities;
}

/**
 * Decrypts a SOPS file (YAML or JSON, age recipients) in memory and returns its plaintext tree
 * (without the `sops` key): strings, numbers and booleans as sops typed them. Verifies every
 * value's GCM tag against its key path and the file's MAC over all values before returning
 * anything, so a file with one changed, moved or removed value returns nothing.
 *
 * Errors name `file` and at most a key path, never a value: SopsFileInvalid, SopsKeyMissing (no
 * identity given), SopsNoMatchingKey, SopsMacMismatch. It writes nothing and logs nothing.
 */
export async function decryptSops(text: string, opts: DecryptSopsOptions): Promise<Record<string, unknown>> {
  const { file } = opts;
  const doc = parseSopsDocument(text, file);
  const meta = doc.metadata;
  if (meta.unencrypted_comment_regex || meta.encrypted_comment_regex)
    throw sopsFileInvalid(
      file,
      'uses comment rules (unencrypted_comment_regex / encrypted_comment_regex), which Groundwork does not read',
    );
  if ((meta.key_groups?.length ?? 0) > 1)
    throw sopsFileInvalid(
      file,
      'splits its data key over several key groups (Shamir), which Groundwork does not read',
    );
  const ageKeys = ageKeysOf(meta);
  if (!ageKeys.length)
    throw sopsFileInvalid(file, 'has no age recipient (Groundwork decrypts with age only)');
  let rules: CryptRules;
  try {
    rules = cryptRules(meta);
  } catch {
    throw sopsFileInvalid(file, 'has an encrypted_regex or unencrypted_regex JavaScript cannot compile');
  }
  if (!opts.identities.identities.length)
    throw sopsKeyMissing(file, 'no age identity was given to decrypt it with');
  const key = await unwrapDataKey(file, ageKeys, opts.identities);

  const hash = createHash('sha512');
  const macOnlyEncrypted = meta.mac_only_encrypted === true;
  if (macOnlyEncrypted) hash.update(MAC_ONLY_ENCRYPTED_INIT);
  const tree = walkLeaves(doc.tree, file, ({ path, value }) => {
    if (!isEncryptedPath(path, rules)) {
      if (!macOnlyEncrypted) hash.update(macBytes(value));
      return value;
    }
    if (value === '') return ''; // sops leaves empty strings as they are
    const enc = typeof value === 'string' ? parseEnc(value) : undefined;
    if (!enc) throw sopsFileInvalid(file, `the value at ${where(path)} is not an ENC[AES256_GCM,…] value`);
    const bytes = openEnc(enc, key, `${path.join(':')}:`);
    if (!bytes)
      throw sopsMacMismatch(
        file,
        `the value at ${where(path)} does not verify (changed, or moved from another key)`,
      );
    const plain = typed(bytes, enc.type, file, path);
    hash.update(macBytes(plain));
    return plain;
  });

  const macEnc = parseEnc(meta.mac);
  if (!macEnc) throw sopsFileInvalid(file, 'its `sops.mac` is not an ENC[AES256_GCM,…] value');
  const stored = openEnc(macEnc, key, macTime(meta.lastmodified));
  const computed = Buffer.from(hash.digest('hex').toUpperCase(), 'utf8');
  if (!stored) throw sopsMacMismatch(file, 'its MAC does not verify (sops.mac or sops.lastmodified changed)');
  if (stored.length !== computed.length || !timingSafeEqual(stored, computed))
    throw sopsMacMismatch(
      file,
      'its MAC does not match its values: the file was changed after sops wrote it',
    );
  return tree as Record<string, unknown>;
}

/** A decrypted value as sops types it; a malformed number or boolean is SopsFileInvalid. */
function typed(
  bytes: Buffer,
  type: EncType,
  file: string,
  path: readonly string[],
): string | number | boolean {
  const text = bytes.toString('utf8');
  switch (type) {
    case 'int':
      if (!/^[+-]?\d+$/.test(text)) break;
      return Number(text);
    case 'float':
      if (!Number.isFinite(Number(text)) || text.trim() === '') break;
      return Number(text);
    case 'bool':
      if (/^(1|t|T|TRUE|true|True)$/.test(text)) return true;
      if (/^(0|f|F|FALSE|false|False)$/.test(text)) return false;
      break;
    default:
      return text; // str, bytes, time (RFC 3339 text), comment
  }
  throw sopsFileInvalid(file, `the value at ${where(path)} is not a valid ${type}`);
}
