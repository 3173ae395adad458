import { createHash } from 'node:crypto';
import { sealEnc, type EncType } from './enc-value.js';
import { MAC_ONLY_ENCRYPTED_INIT, macBytes } from './mac.js';
import { pathText } from './sealed-sops.js';
import { sopsFileInvalid } from './sops-errors.js';
import { aadOf, walkLeaves } from './sops-document.js';
import { isEncryptedPath, type CryptRules } from './sops-metadata.js';

/**
 * IVs to use again, by value: sops's AES cipher remembers the IV of each value it decrypted (its
 * `stash`, keyed by plaintext and key path) and encrypts the same value at the same key path with
 * it, so an unchanged value keeps its ciphertext through `sops edit` (AES-GCM under one key, IV,
 * plaintext and additional data gives one ciphertext: nothing is learnt that the old file did not
 * show). Keys come from `ivKey`.
 */
export type IvStash = ReadonlyMap<string, Buffer>;

/** The stash key of a value: its additional data, its type label and its bytes. */
export function ivKey(additionalData: string, type: EncType, bytes: Buffer): string {
  return `${additionalData}\u0000${type}\u0000${bytes.toString('base64')}`;
}

/** How to seal a plaintext tree. */
export interface SealTreeOptions {
  /** Subject of errors. */
  file: string;
  /** The 32-byte data key. */
  key: Uint8Array;
  rules: CryptRules;
  /** sops's `mac_only_encrypted`: the MAC covers the encrypted values only. */
  macOnlyEncrypted: boolean;
  /** @default no IV is reused */
  ivs?: IvStash;
}

/**
 * Encrypts, in place, every leaf of a plaintext YAML node tree (without its `sops` key) that the
 * rules encrypt, as sops's `Tree.Encrypt` does: AES-256-GCM with the key path as additional data,
 * an empty value left as it is, and returns the MAC (SHA-512 over the values in file order,
 * upper-case hex) for the caller to seal with `lastmodified`. Throws SopsFileInvalid naming the
 * key path (never a value) for an alias, a key that is not a string, or a number that is not
 * finite. Writes and logs nothing.
 */
export function sealTree(root: unknown, opts: SealTreeOptions): string {
  const hash = createHash('sha512');
  if (opts.macOnlyEncrypted) hash.update(MAC_ONLY_ENCRYPTED_INIT);
  walkLeaves(root, opts.file, {
    leaf: ({ path, value, node }) => {
      if (typeof value === 'number' && !Number.isFinite(value))
        throw sopsFileInvalid(opts.file, `the value at ${pathText(path)} is not a finite number`);
      const keys = path.filter((s): s is string => typeof s === 'string');
      const encrypted = isEncryptedPath(keys, opts.rules);
      const bytes = macBytes(value);
      if (!opts.macOnlyEncrypted || encrypted) hash.update(bytes);
      if (!encrypted || value === '') return;
      const type = encType(value);
      const aad = aadOf(path);
      node.value = sealEnc(bytes, type, opts.key, aad, opts.ivs?.get(ivKey(aad, type, bytes)));
      node.type = 'PLAIN';
    },
  });
  return hash.digest('hex').toUpperCase();
}

/** The `type:` label sops gives a plaintext value. */
export function encType(value: string | number | boolean): EncType {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  return Number.isInteger(value) ? 'int' : 'float';
}
