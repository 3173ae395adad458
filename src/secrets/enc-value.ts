import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The types SOPS records in an `ENC[…]` value (sops `aes/cipher.go`). */
export type EncType = 'str' | 'int' | 'float' | 'bool' | 'bytes' | 'time' | 'comment';

/** One parsed `ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]` value. */
export interface EncValue {
  data: Buffer;
  iv: Buffer;
  tag: Buffer;
  type: EncType;
}

const ENC =
  /^ENC\[AES256_GCM,data:([A-Za-z0-9+/=]*),iv:([A-Za-z0-9+/=]+),tag:([A-Za-z0-9+/=]+),type:(str|int|float|bool|bytes|time|comment)\]$/;

/** SOPS's nonce length: 32 bytes, not GCM's usual 12. */
const IV_BYTES = 32;
const TAG_BYTES = 16;

/** Parses an `ENC[…]` value; undefined when `text` is not one (the caller names the key path, never the text). */
export function parseEnc(text: string): EncValue | undefined {
  const m = ENC.exec(text);
  if (!m) return undefined;
  const [data, iv, tag] = [m[1]!, m[2]!, m[3]!].map((b) => Buffer.from(b, 'base64'));
  if (iv!.length === 0 || tag!.length !== TAG_BYTES) return undefined;
  return { data: data!, iv: iv!, tag: tag!, type: m[4] as EncType };
}

/**
 * The plaintext bytes of `value` under the 32-byte data key, authenticated with `additionalData`
 * (the key path `a:b:c:`, or the `lastmodified` time for the MAC). Undefined when GCM's tag does
 * not verify: the value was changed, or moved to another key path, or the data key is another one.
 */
export function openEnc(value: EncValue, key: Uint8Array, additionalData: string): Buffer | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, value.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(additionalData, 'utf8'));
    decipher.setAuthTag(value.tag);
    return Buffer.concat([decipher.update(value.data), decipher.final()]);
  } catch {
    return undefined;
  }
}

/**
 * Encrypts `plaintext` as SOPS does: AES-256-GCM with `additionalData` and a fresh 32-byte IV, or
 * `reuseIv`: the IV this same plaintext had at this same key path under this key (sops's stash on
 * edit, `IvStash`), never another value's.
 */
export function sealEnc(
  plaintext: Buffer,
  type: EncType,
  key: Uint8Array,
  additionalData: string,
  reuseIv?: Buffer,
): string {
  const iv = reuseIv ?? randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const b64 = (b: Buffer) => b.toString('base64');
  return `ENC[AES256_GCM,data:${b64(data)},iv:${b64(iv)},tag:${b64(cipher.getAuthTag())},type:${type}]`;
}
