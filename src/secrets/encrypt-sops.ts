import { randomBytes } from 'node:crypto';
import { Encrypter, armor } from 'age-encryption';
import { Document } from 'yaml';
import { DATA_KEY_BYTES } from './data-key.js';
import { sealEnc } from './enc-value.js';
import { emitDocument, type SopsFormat } from './sops-emit.js';
import { cryptRuleFields, cryptRules, type CryptRules } from './sops-metadata.js';
import { sealTree } from './seal-tree.js';

/** The sops version whose format this writes (and which the e2e tests decrypt it with). */
export const SOPS_FORMAT_VERSION = '3.13.3';

/** How to encrypt: for whom, in which syntax, and which keys to leave readable. */
export interface EncryptSopsOptions {
  /** age recipients (`age1…`), at least one. */
  recipients: readonly string[];
  /** @default 'yaml' */
  format?: SopsFormat;
  /**
   * Only keys matching this (and what is under them) are encrypted, as sops's `--encrypted-regex`,
   * e.g. `^(data|stringData)$` for a Secret manifest whose metadata stays readable. Ignored when
   * `rules` is given.
   * @default every value is encrypted but those under a key ending in `_unencrypted`
   */
  encryptedRegex?: string;
  /** Which values stay readable (`cryptRules`, from a creation rule or flags). @default as `encryptedRegex` */
  rules?: CryptRules;
  /** sops's `mac_only_encrypted`. @default false */
  macOnlyEncrypted?: boolean;
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
  return encryptSopsDocument(new Document(tree), opts);
}

/**
 * `encryptSops` of a parsed plaintext document (its keys keep their order), which it encrypts in
 * place. Throws SopsFileInvalid naming a key path for a value it cannot encrypt (an alias, a key
 * that is not a string, a number that is not finite).
 */
export async function encryptSopsDocument(doc: Document, opts: EncryptSopsOptions): Promise<string> {
  if (!opts.recipients.length) throw new Error('encryptSops: at least one age recipient is required');
  const key = randomBytes(DATA_KEY_BYTES);
  const rules = opts.rules ?? cryptRules({ encrypted_regex: opts.encryptedRegex });
  const macOnlyEncrypted = opts.macOnlyEncrypted === true;
  const mac = sealTree(doc.contents, { file: '(plaintext)', key, rules, macOnlyEncrypted });
  const lastmodified = sopsTime(opts.now ?? new Date());
  const age = [];
  for (const recipient of opts.recipients) {
    const e = new Encrypter();
    e.addRecipient(recipient);
    age.push({ recipient, enc: armor.encode(await e.encrypt(key)) });
  }
  doc.set(
    'sops',
    doc.createNode({
      age,
      lastmodified,
      mac: sealEnc(Buffer.from(mac), 'str', key, lastmodified),
      ...cryptRuleFields(rules),
      ...(macOnlyEncrypted ? { mac_only_encrypted: true } : {}),
      version: SOPS_FORMAT_VERSION,
    }),
  );
  return emitDocument(doc, opts.format ?? 'yaml');
}

/** `lastmodified` as sops writes it: UTC, RFC 3339 to the second (the MAC's additional data). */
export function sopsTime(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z');
}
