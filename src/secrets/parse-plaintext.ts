import { isMap, isScalar, parseAllDocuments, type Document } from 'yaml';
import { GroundworkError } from '../core/errors.js';
import { MAX_SOPS_FILE_BYTES } from './sops-document.js';

/** PlaintextInvalid naming `subject` (a file or the editor's copy), never quoting the text. */
export function plaintextInvalid(subject: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'PlaintextInvalid', subject, message, fix });
}

const FIX = 'write one YAML (or JSON) map of keys to text values, or a kind: Secret manifest';

/**
 * Parses the plaintext of a file to encrypt (`secret encrypt`, or what the editor left in
 * `secret edit`): one YAML or JSON document (JSON is read as YAML, which keeps key order), a map,
 * no key twice, no `sops` key (it is already encrypted, or metadata was pasted in), at most
 * `MAX_SOPS_FILE_BYTES`. Throws PlaintextInvalid naming `subject` and at most a line number: the
 * parser's own messages quote the text, so they are not used.
 */
export function parsePlaintext(text: string, subject: string): Document {
  if (Buffer.byteLength(text) > MAX_SOPS_FILE_BYTES)
    throw plaintextInvalid(
      subject,
      `is larger than ${MAX_SOPS_FILE_BYTES} bytes`,
      'a Secret holds at most 1 MiB',
    );
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1)
    throw plaintextInvalid(
      subject,
      'is not one YAML or JSON document',
      'put each Secret in a file of its own',
    );
  const doc = docs[0]!;
  if (doc.errors.length) {
    const line = doc.errors[0]!.linePos?.[0].line;
    const at = line ? ` (line ${line})` : '';
    if (doc.errors[0]!.code === 'DUPLICATE_KEY')
      throw plaintextInvalid(subject, `has a key twice${at}`, 'keep one of them');
    throw plaintextInvalid(subject, `is not YAML or JSON${at}`, FIX);
  }
  if (!isMap(doc.contents)) throw plaintextInvalid(subject, 'is not a map of keys to values', FIX);
  if (doc.contents.items.some((p) => isScalar(p.key) && p.key.value === 'sops'))
    throw plaintextInvalid(
      subject,
      'has a top-level sops key: it is already encrypted, or holds SOPS metadata',
      'decrypt it first (groundwork secret edit edits an encrypted file in place), or rename the key',
    );
  return doc;
}
