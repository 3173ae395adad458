import { createHash, timingSafeEqual } from 'node:crypto';
import type { AgeIdentities } from './age-identities.js';
import { unwrapDataKey } from './data-key.js';
import { openEnc, parseEnc, type EncType } from './enc-value.js';
import { MAC_ONLY_ENCRYPTED_INIT, macBytes, macTime } from './mac.js';
import { pathText, type SealedPath, type SealedSops } from './sealed-sops.js';
import { sopsFileInvalid, sopsKeyMissing, sopsMacMismatch } from './sops-errors.js';
import { aadOf } from './sops-document.js';

/** What to decrypt with, and the file's name for messages. */
export interface OpenSopsOptions {
  /** The file's path in the repository: the subject of every error. */
  file: string;
  identities: AgeIdentities;
}

/** A leaf of an opened file: its value as sops types it, and whether it was encrypted. */
export interface OpenedLeaf {
  path: SealedPath;
  /** A readable leaf's MAC text; an encrypted one's plaintext, typed by its `type:` label. */
  value: string | number | boolean;
  /** The `type:` label of an encrypted leaf; absent for a readable one. */
  type?: EncType;
}

/**
 * Decrypts a sealed SOPS file (`parseSealedSops`) in memory: unwraps the data key with one of
 * `identities`, opens every encrypted value with its key path as additional data, and verifies the
 * file's MAC over all values in order before returning anything, so a file with one changed, moved,
 * removed or relabelled value returns nothing.
 *
 * The `type:` label of an `ENC[…]` value is not authenticated (sops's format), so a value whose
 * text does not read as its label fails exactly as a value that does not open ("does not verify"):
 * no message tells what type a plaintext would parse as.
 *
 * Errors name `file` and at most a key path, never a value: SopsFileInvalid, SopsKeyMissing (no
 * identity given), SopsNoMatchingKey, SopsMacMismatch. It parses no YAML, writes and logs nothing.
 */
export async function openSops(sealed: SealedSops, opts: OpenSopsOptions): Promise<OpenedLeaf[]> {
  return (await openSopsWithKey(sealed, opts)).leaves;
}

/** An opened file and its data key, for re-encrypting it as sops does on edit. Never logged. */
export interface OpenedSops {
  leaves: OpenedLeaf[];
  /** The 32-byte data key. */
  key: Uint8Array;
}

/** `openSops`, also returning the data key (`secret edit` encrypts the edited file with it again). */
export async function openSopsWithKey(sealed: SealedSops, opts: OpenSopsOptions): Promise<OpenedSops> {
  const { file } = opts;
  if (!opts.identities.identities.length)
    throw sopsKeyMissing(file, 'no age identity was given to decrypt it with');
  const key = await unwrapDataKey(file, sealed.age, opts.identities);
  const hash = createHash('sha512');
  if (sealed.macOnlyEncrypted) hash.update(MAC_ONLY_ENCRYPTED_INIT);
  const out: OpenedLeaf[] = [];
  for (const leaf of sealed.leaves) {
    if ('plain' in leaf) {
      if (!sealed.macOnlyEncrypted) hash.update(Buffer.from(leaf.plain, 'utf8'));
      out.push({ path: leaf.path, value: leaf.plain });
      continue;
    }
    const enc = parseEnc(leaf.enc);
    if (!enc)
      throw sopsFileInvalid(file, `the value at ${pathText(leaf.path)} is not an ENC[AES256_GCM,…] value`);
    const bytes = openEnc(enc, key, aadOf(leaf.path));
    const value = bytes && typed(bytes, enc.type);
    if (value === undefined)
      throw sopsMacMismatch(
        file,
        `the value at ${pathText(leaf.path)} does not verify (changed, moved from another key, or relabelled)`,
      );
    // sops leaves comments out of the MAC.
    if (enc.type !== 'comment') hash.update(macBytes(value));
    out.push({ path: leaf.path, value, type: enc.type });
  }
  const macEnc = parseEnc(sealed.mac);
  if (!macEnc) throw sopsFileInvalid(file, 'its `sops.mac` is not an ENC[AES256_GCM,…] value');
  const stored = openEnc(macEnc, key, macTime(sealed.lastmodified));
  const computed = Buffer.from(hash.digest('hex').toUpperCase(), 'utf8');
  if (!stored) throw sopsMacMismatch(file, 'its MAC does not verify (sops.mac or sops.lastmodified changed)');
  if (stored.length !== computed.length || !timingSafeEqual(stored, computed))
    throw sopsMacMismatch(
      file,
      'its MAC does not match its values: the file was changed after sops wrote it',
    );
  return { leaves: out, key };
}

/** A decrypted value as sops types it (`aes/cipher.go`), or undefined when its text is not of its label. */
function typed(bytes: Buffer, type: EncType): string | number | boolean | undefined {
  const text = bytes.toString('utf8');
  switch (type) {
    case 'int':
      return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
    case 'float':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'bool':
      if (/^(1|t|T|TRUE|true|True)$/.test(text)) return true;
      if (/^(0|f|F|FALSE|false|False)$/.test(text)) return false;
      return undefined;
    default:
      return text; // str, bytes, time (RFC 3339 text), comment
  }
}
