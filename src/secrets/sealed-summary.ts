import { sopsFileInvalid } from './sops-errors.js';
import { parseSopsDocument } from './sops-document.js';
import { ageKeysOf } from './sops-metadata.js';

/** What of an encrypted file can be shown without its key. */
export interface SealedSummary {
  /** The Secret's keys, each with its ciphertext (`ENC[…]`, or the JSON of what is under it). */
  values: Record<string, string>;
  /** The age recipients (public keys) it is encrypted for. */
  recipients: string[];
  lastmodified: string;
}

/**
 * The key names, ciphertexts and recipients of a `SopsSecret` file, read without decrypting: for a
 * `kind: Secret` manifest its `data` and `stringData` keys, else its top-level keys. For previews:
 * a key whose ciphertext changed shows as changed (sops keeps an unchanged value's ciphertext when
 * it edits a file; `sops rotate` changes all of them). Throws SopsFileInvalid like `decryptSops`.
 */
export function sealedSummary(text: string, file: string): SealedSummary {
  const doc = parseSopsDocument(text, file);
  const tree = doc.tree.toJSON() as Record<string, unknown>;
  const values: Record<string, string> = {};
  const add = (map: unknown) => {
    if (map === null || typeof map !== 'object') return;
    for (const [k, v] of Object.entries(map)) values[k] = typeof v === 'string' ? v : JSON.stringify(v);
  };
  if (tree.kind === 'Secret') {
    add(tree.data);
    add(tree.stringData);
  } else add(tree);
  const recipients = ageKeysOf(doc.metadata).map((k) => k.recipient);
  if (!recipients.length)
    throw sopsFileInvalid(file, 'has no age recipient (Groundwork decrypts with age only)');
  return { values, recipients, lastmodified: doc.metadata.lastmodified };
}
