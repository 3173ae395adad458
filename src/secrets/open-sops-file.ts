import { parseDocument, visit, isMap, isScalar, type Document, type YAMLMap } from 'yaml';
import type { AgeIdentities } from './age-identities.js';
import { parseEnc } from './enc-value.js';
import { macBytes } from './mac.js';
import { openSopsWithKey, type OpenedLeaf } from './open-sops.js';
import { sealSops } from './seal-sops.js';
import { formatOf, type SopsFormat } from './sops-emit.js';
import { aadOf, walkLeaves } from './sops-document.js';
import { cryptRules, sopsMetadataSchema, type CryptRules, type SopsMetadata } from './sops-metadata.js';
import { sopsFileInvalid } from './sops-errors.js';
import { ivKey, type IvStash } from './seal-tree.js';

/**
 * An encrypted file opened for `secret decrypt` and `secret edit`. Holds a plaintext and the data
 * key: keep it in memory, never log it.
 */
export interface OpenedSopsFile {
  file: string;
  format: SopsFormat;
  /** The file's tree with each encrypted value replaced by its plaintext: no `sops` key, no comments. */
  plaintext: Document;
  /** How many comments the file had (sops encrypts them; they are not in `plaintext`). */
  comments: number;
  /** The leaves as opened, in file order (each with its `type:` label when it was encrypted). */
  leaves: OpenedLeaf[];
  /** The 32-byte data key, and the IV of each value for encrypting it again unchanged. */
  key: Uint8Array;
  ivs: IvStash;
  /** The `sops` metadata as written (kept on edit: recipients, rules, other key sources). */
  metadataNode: YAMLMap;
  metadata: SopsMetadata;
  rules: CryptRules;
}

/**
 * Opens an encrypted SOPS file (YAML, or JSON for a `.json` name): parses and checks it as the
 * render side does (`sealSops`), verifies every value and the MAC with `identities`
 * (`openSopsWithKey`) before anything else, then rebuilds its plaintext tree, keys in file order.
 * A file whose MAC does not verify gives nothing (SopsMacMismatch). Errors name `file` and at most
 * a key path, never a value; nothing is written.
 */
export async function openSopsFile(
  text: string,
  file: string,
  identities: AgeIdentities,
): Promise<OpenedSopsFile> {
  const { sealed } = sealSops(text, file);
  const { leaves, key } = await openSopsWithKey(sealed, { file, identities });
  const doc = parseDocument(text, { uniqueKeys: true });
  const root = doc.contents;
  if (!isMap(root)) throw sopsFileInvalid(file, 'not a map of keys to values');
  const metaPair = root.items.find((p) => isScalar(p.key) && p.key.value === 'sops')!;
  root.items = root.items.filter((p) => p !== metaPair);
  const ivs = new Map<string, Buffer>();
  let i = 0;
  walkLeaves(root, file, {
    leaf: ({ node }) => {
      const opened = leaves[i];
      const sealedLeaf = sealed.leaves[i++];
      if (!opened || !sealedLeaf) throw sopsFileInvalid(file, 'changed while it was read');
      if (!('enc' in sealedLeaf)) return;
      node.value = opened.value;
      node.type = undefined;
      const enc = parseEnc(sealedLeaf.enc)!;
      const bytes = macBytes(opened.value);
      ivs.set(ivKey(aadOf(opened.path), enc.type, bytes), enc.iv);
    },
  });
  const comments = stripComments(doc);
  const metadataNode = metaPair.value as YAMLMap;
  const metadata = sopsMetadataSchema.parse(metadataNode.toJS(doc, { maxAliasCount: 0 }));
  return {
    file,
    format: formatOf(file),
    plaintext: doc,
    comments,
    leaves,
    key,
    ivs,
    metadataNode,
    metadata,
    // sealSops compiled these already: they compile.
    rules: cryptRules(metadata),
  };
}

/** How many comments `doc` holds. */
export function countComments(doc: Document): number {
  return walkComments(doc, false);
}

/** Removes every comment of `doc`, returning how many there were. */
function stripComments(doc: Document): number {
  return walkComments(doc, true);
}

function walkComments(doc: Document, strip: boolean): number {
  let count = 0;
  const clear = (n: object) => {
    const c = n as { commentBefore?: string | null; comment?: string | null };
    if (c.commentBefore) count++;
    if (c.comment) count++;
    if (!strip) return;
    if ('commentBefore' in c) c.commentBefore = null;
    if ('comment' in c) c.comment = null;
  };
  clear(doc);
  visit(doc, {
    Node: (_key, node) => {
      clear(node);
    },
  });
  return count;
}
