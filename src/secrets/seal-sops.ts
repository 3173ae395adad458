import { macBytes } from './mac.js';
import {
  parseSealedSops,
  pathText,
  sealedText,
  type SealedLeaf,
  type SealedPath,
  type SealedSops,
} from './sealed-sops.js';
import { sopsFileInvalid } from './sops-errors.js';
import { parseSopsDocument, walkLeaves } from './sops-document.js';
import { ageKeysOf, cryptRules, isEncryptedPath, type CryptRules } from './sops-metadata.js';
import { ENC_SHAPE } from './sealed-sops.js';
import { checkSecretLeaves, sealedShape } from './secret-leaves.js';
import { SopsRegexError } from './sops-regex.js';

/** A file sealed, and the key paths of its null values (sops skips them; a Secret has no null value). */
export interface SealResult {
  sealed: SealedSops;
  nulls: SealedPath[];
}

/**
 * Reads an encrypted SOPS file (YAML or JSON) into its sealed form, without any key: every leaf
 * with its key path, as `ENC[…]` where the file's rules (`encrypted_regex`, `_unencrypted` suffix,
 * …) encrypt it, else as its MAC bytes; and the metadata decryption needs. This is where repository
 * bytes are parsed: it runs in the render domain (the synth child), and its result is data for the
 * trusted side (`parseSealedSops` re-checks it there).
 *
 * Throws SopsFileInvalid naming `file` and at most a key path, never a value: not one YAML/JSON
 * map, a key twice, aliases, no `sops` metadata, comment rules, Shamir key groups, no age
 * recipient, a rule sops's regex engine would not compile (or too large to evaluate: RE2, linear
 * time, `compileSopsRegex`), or a value the rules encrypt that is not `ENC[…]`.
 * It does not check that the file makes a good Secret (`checkSecretLeaves` does).
 */
export function sealSops(text: string, file: string): SealResult {
  const doc = parseSopsDocument(text, file);
  const meta = doc.metadata;
  if (meta.unencrypted_comment_regex || meta.encrypted_comment_regex)
    throw sopsFileInvalid(
      file,
      'uses comment rules (unencrypted_comment_regex / encrypted_comment_regex), which Groundwork does not read',
    );
  if ((meta.key_groups?.length ?? 0) > 1)
    throw sopsFileInvalid(
      file,
      'splits its data key over several key groups (Shamir), which Groundwork does not read',
    );
  const age = ageKeysOf(meta);
  if (!age.length) throw sopsFileInvalid(file, 'has no age recipient (Groundwork decrypts with age only)');
  const leaves: SealedLeaf[] = [];
  const nulls: SealedPath[] = [];
  withRegexErrors(file, () => walkSealed(doc.tree, file, cryptRules(meta), leaves, nulls));
  const sealed: SealedSops = {
    v: 1,
    leaves,
    age: age.map((k) => ({ recipient: k.recipient, enc: k.enc })),
    lastmodified: meta.lastmodified,
    mac: meta.mac,
    macOnlyEncrypted: meta.mac_only_encrypted === true,
  };
  // What the trusted side will accept, checked here too so the author hears it at synth.
  return { sealed: parseSealedSops(sealedText(sealed), file), nulls };
}

/**
 * What `SopsSecret` does with its file in the render domain: `sealSops`, then `checkSecretLeaves`
 * with the shape readable without the key and the file's nulls. Throws SopsFileInvalid or
 * SopsValueUnprotected naming `file` and at most a key path.
 */
export function sealSecretFile(text: string, file: string): SealedSops {
  const { sealed, nulls } = sealSops(text, file);
  checkSecretLeaves(sealed, file, sealedShape(sealed), nulls);
  return sealed;
}

/** The leaves of `tree` under `rules`: readable ones as their MAC text, the others as `ENC[…]`. */
function walkSealed(
  tree: unknown,
  file: string,
  rules: CryptRules,
  leaves: SealedLeaf[],
  nulls: SealedPath[],
): void {
  walkLeaves(tree, file, {
    null: (path) => nulls.push(path),
    leaf: ({ path, value }) => {
      const keys = path.filter((s): s is string => typeof s === 'string');
      if (!isEncryptedPath(keys, rules) || value === '') {
        leaves.push({ path, plain: macBytes(value).toString('utf8') });
        return;
      }
      if (typeof value !== 'string' || !ENC_SHAPE.test(value))
        throw sopsFileInvalid(file, `the value at ${pathText(path)} is not an ENC[AES256_GCM,…] value`);
      leaves.push({ path, enc: value });
    },
  });
}

/** Runs `fn`, turning a refused rule (`SopsRegexError`) into SopsFileInvalid naming `file`. */
function withRegexErrors<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SopsRegexError)
      throw sopsFileInvalid(file, `its encrypted_regex or unencrypted_regex ${err.message}`);
    throw err;
  }
}
