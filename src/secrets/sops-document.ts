import { YAMLMap, isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Node, type Scalar } from 'yaml';
import { pathText, type SealedPath } from './sealed-sops.js';
import { sopsFileInvalid } from './sops-errors.js';
import { sopsMetadataSchema, type SopsMetadata } from './sops-metadata.js';

/** A leaf of the tree: its key path (sequence items add no element, as in sops) and its YAML value. */
export interface Leaf {
  path: SealedPath;
  value: string | number | boolean;
  /** The YAML node holding it (re-encryption replaces its value in place). */
  node: Scalar;
}

/** A parsed SOPS file: its tree (without the `sops` key) as YAML nodes in file order, and its metadata. */
export interface SopsDocument {
  file: string;
  tree: Node;
  metadata: SopsMetadata;
}

/** Upper bound of an encrypted file (a Secret holds at most 1 MiB; the ciphertext is about 1.4 times that). */
export const MAX_SOPS_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Parses an encrypted SOPS file (YAML or JSON; JSON is read as YAML, which keeps key order) into
 * its tree and metadata. Throws SopsFileInvalid naming `file`, never quoting its text: more than
 * one document, not a map, aliases, no `sops` key or metadata that fails its schema.
 */
export function parseSopsDocument(text: string, file: string): SopsDocument {
  if (Buffer.byteLength(text) > MAX_SOPS_FILE_BYTES)
    throw sopsFileInvalid(file, `larger than ${MAX_SOPS_FILE_BYTES} bytes`);
  const docs = parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1)
    throw sopsFileInvalid(file, 'not one YAML or JSON document (put each Secret in a file of its own)');
  const doc = docs[0]!;
  if (doc.errors.length) {
    const line = doc.errors[0]!.linePos?.[0].line;
    const at = line ? ` (line ${line})` : '';
    if (doc.errors[0]!.code === 'DUPLICATE_KEY')
      throw sopsFileInvalid(
        file,
        `has a key twice${at}: sops, Groundwork and Kubernetes could each read a different one; keep one`,
      );
    throw sopsFileInvalid(file, `not YAML or JSON${at}`);
  }
  const root = doc.contents;
  if (!isMap(root)) throw sopsFileInvalid(file, 'not a map of keys to values');
  const metaPair = root.items.find((p) => isScalar(p.key) && p.key.value === 'sops');
  if (!metaPair) throw sopsFileInvalid(file, 'has no `sops` metadata: it is not encrypted');
  if (!isMap(metaPair.value)) throw sopsFileInvalid(file, 'its `sops` metadata is not a map');
  const parsed = sopsMetadataSchema.safeParse(metaPair.value.toJS(doc, { maxAliasCount: 0 }));
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(root)'))].join(', ');
    throw sopsFileInvalid(file, `its \`sops\` metadata is not valid (${fields})`);
  }
  const tree = new YAMLMap();
  tree.items = root.items.filter((p) => p !== metaPair);
  return { file, tree, metadata: parsed.data };
}

/**
 * Walks `node` in file order, as sops walks its tree (`TreeBranch.walkBranch`): map values extend
 * the path with their key, sequence items with their index (sops's additional data leaves indices
 * out: `aadOf`), every non-null scalar is given to `on.leaf`, every null to `on.null` (sops skips
 * them). Throws SopsFileInvalid, naming the key path, on an alias, a key that is not a scalar, or
 * a value of another kind.
 */
export function walkLeaves(
  node: unknown,
  file: string,
  on: { leaf: (leaf: Leaf) => void; null?: (path: SealedPath) => void },
  path: SealedPath = [],
): void {
  if (isAlias(node)) throw sopsFileInvalid(file, `uses a YAML alias at ${pathText(path)}`);
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isScalar(pair.key))
        throw sopsFileInvalid(file, `has a key that is not a string at ${pathText(path)}`);
      walkLeaves(pair.value, file, on, [...path, String(pair.key.value)]);
    }
    return;
  }
  if (isSeq(node)) {
    node.items.forEach((item, i) => walkLeaves(item, file, on, [...path, i]));
    return;
  }
  const value = node === null || node === undefined ? null : isScalar(node) ? node.value : undefined;
  if (value === null || value === undefined) {
    if (value === null) on.null?.(path);
    else throw sopsFileInvalid(file, `has a value of an unknown kind at ${pathText(path)}`);
    return;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return on.leaf({ path, value, node: node as Scalar });
  throw sopsFileInvalid(file, `has a value of an unsupported type at ${pathText(path)}`);
}

/** sops's additional data for the value at `path`: its map keys joined by `:`, and a final `:`. */
export function aadOf(path: readonly (string | number)[]): string {
  return `${path.filter((s): s is string => typeof s === 'string').join(':')}:`;
}
