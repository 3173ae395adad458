import { sealedShape } from './secret-leaves.js';
import type { SealedSops } from './sealed-sops.js';

/** What of an encrypted file can be shown without its key. */
export interface SealedSummary {
  /** The Secret's keys, each with its ciphertext (`ENC[…]`, or the JSON of what is under it). */
  values: Record<string, string>;
  /** The age recipients (public keys) it is encrypted for. */
  recipients: string[];
  lastmodified: string;
}

/**
 * The key names, ciphertexts and recipients of a sealed `SopsSecret` file, read without
 * decrypting: for a `kind: Secret` manifest its `data` and `stringData` keys, else its top-level
 * keys (what is under one joined as JSON). For previews: a key whose ciphertext changed shows as
 * changed (sops keeps an unchanged value's ciphertext when it edits a file; `sops rotate` changes
 * all of them). Pure: the sealed form was parsed by `parseSealedSops`.
 */
export function sealedSummary(sealed: SealedSops): SealedSummary {
  const manifest = sealedShape(sealed) === 'manifest';
  const grouped = new Map<string, string[]>();
  for (const leaf of sealed.leaves) {
    const [first, second] = leaf.path;
    const key = manifest ? (first === 'data' || first === 'stringData' ? second : undefined) : first;
    if (typeof key !== 'string') continue;
    const text = 'enc' in leaf ? leaf.enc : leaf.plain;
    grouped.set(key, [...(grouped.get(key) ?? []), text]);
  }
  const values: Record<string, string> = {};
  for (const [key, texts] of grouped) values[key] = texts.length === 1 ? texts[0]! : JSON.stringify(texts);
  return {
    values,
    recipients: sealed.age.map((k) => k.recipient),
    lastmodified: sealed.lastmodified,
  };
}
