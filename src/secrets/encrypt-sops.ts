import { createHash, randomBytes } from 'node:crypto';
import { Encrypter, armor } from 'age-encryption';
import { Document, Scalar as YamlScalar } from 'yaml';
import { DATA_KEY_BYTES } from './data-key.js';
import { sealEnc, type EncType } from './enc-value.js';
import { macBytes } from './mac.js';
import { isEncryptedPath, type CryptRules } from './sops-metadata.js';

/** The sops version whose format this writes (and which the e2e tests decrypt it with). */
export const SOPS_FORMAT_VERSION = '3.13.3';

/** How to encrypt: for whom, in which syntax, and which keys to leave readable. */
export interface EncryptSopsOptions {
  /** age recipients (`age1…`), at least one. */
  recipients: readonly string[];
  /** @default 'yaml' */
  format?: 'yaml' | 'json';
  /**
   * Only keys matching this (and what is under them) are encrypted, as sops's `--encrypted-regex`,
   * e.g. `^(data|stringData)$` for a Secret manifest whose metadata stays readable.
   * @default every value is encrypted but those under a key ending in `_unencrypted`
   */
  encryptedRegex?: string;
  /** @default new Date() */
  now?: Date;
}

/**
 * Encrypts a plaintext tree into a SOPS file that `sops --decrypt` reads: a fresh 32-byte data key
 * wrapped for each recipient with age (armored), every value sealed with AES-256-GCM and its key
 * path as additional data, and the MAC (SHA-512 over the values in order) sealed with the
 * `lastmodified` time. Comments are not kept. In memory only: the caller decides where it goes.
 */
export async function encryptSops(tree: Record<string, unknown>, opts: EncryptSopsOptions): Promise<string> {
  if (!opts.recipients.length) throw new Error('encryptSops: at least one age recipient is required');
  const key = randomBytes(DATA_KEY_BYTES);
  const rules: CryptRules = opts.encryptedRegex
    ? { encryptedRegex: new RegExp(opts.encryptedRegex) }
    : { unencryptedSuffix: '_unencrypted' };
  const hash = createHash('sha512');
  const sealed = seal(tree, [], (value, path) => {
    hash.update(macBytes(value));
    if (!isEncryptedPath(path, rules) || value === '') return value;
    return sealEnc(macBytes(value), encType(value), key, `${path.join(':')}:`);
  });
  const lastmodified = (opts.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  const mac = sealEnc(Buffer.from(hash.digest('hex').toUpperCase()), 'str', key, lastmodified);
  const age = [];
  for (const recipient of opts.recipients) {
    const e = new Encrypter();
    e.addRecipient(recipient);
    age.push({ recipient, enc: armor.encode(await e.encrypt(key)) });
  }
  const out = {
    ...(sealed as Record<string, unknown>),
    sops: {
      age,
      lastmodified,
      mac,
      ...(opts.encryptedRegex
        ? { encrypted_regex: opts.encryptedRegex }
        : { unencrypted_suffix: '_unencrypted' }),
      version: SOPS_FORMAT_VERSION,
    },
  };
  if (opts.format === 'json') return `${JSON.stringify(out, null, 4)}\n`;
  const doc = new Document(out);
  // Quoted, as sops writes it: go-yaml reads an unquoted RFC 3339 time as a timestamp, not a string.
  const time = doc.getIn(['sops', 'lastmodified'], true);
  if (time instanceof YamlScalar) time.type = 'QUOTE_DOUBLE';
  return doc.toString({ lineWidth: 0 });
}

type Scalar = string | number | boolean;

function seal(
  node: unknown,
  path: readonly string[],
  onLeaf: (v: Scalar, path: readonly string[]) => unknown,
): unknown {
  if (Array.isArray(node)) return node.map((item) => seal(item, path, onLeaf));
  if (node !== null && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, seal(v, [...path, k], onLeaf)]));
  if (typeof node === 'string' || typeof node === 'boolean') return onLeaf(node, path);
  if (typeof node === 'number' && Number.isFinite(node)) return onLeaf(node, path);
  if (node === null || node === undefined) return null;
  throw new Error(
    `encryptSops: the value at ${path.join('.') || '(top level)'} is not a string, number or boolean`,
  );
}

function encType(value: Scalar): EncType {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  return Number.isInteger(value) ? 'int' : 'float';
}
