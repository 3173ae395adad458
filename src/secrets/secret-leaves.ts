import type { SealedPath, SealedSops } from './sealed-sops.js';
import { ENC_SHAPE, pathText } from './sealed-sops.js';
import { sopsValueUnprotected } from './sops-errors.js';
import type { GroundworkError } from '../core/errors.js';

/**
 * How a SOPS file becomes a Secret: a `kind: Secret` manifest (its `data` or `stringData` are the
 * values; `apiVersion`, `kind`, `metadata` and `type` are not values), or a flat map (every key is
 * a value). `unknown`: the file encrypts its `kind`, so only decryption tells.
 */
export type SecretShape = 'manifest' | 'map' | 'unknown';

/** A Secret key: letters, digits, `-`, `_` and `.` (the apiserver's rule), at most 253 characters. */
export const SECRET_KEY = /^[-._a-zA-Z0-9]{1,253}$/;

const ENCRYPT_FIX =
  "encrypt every Secret value: `sops --encrypt --age <recipient> --encrypted-regex '^(data|stringData)$'` for a manifest, no rule for a flat file, and no key ending in _unencrypted";

/** The shape a sealed file shows without its key: from a readable `kind`, else unknown when `kind` is encrypted. */
export function sealedShape(sealed: SealedSops): SecretShape {
  const kind = sealed.leaves.find((l) => l.path.length === 1 && l.path[0] === 'kind');
  if (!kind) return 'map';
  if ('enc' in kind) return 'unknown';
  return kind.plain === 'Secret' ? 'manifest' : 'map';
}

/**
 * Refuses a sealed file whose Secret values sops cannot protect, before any decryption and from
 * what anyone can read (key paths, which values are `ENC[…]`, their `type:` labels), so the answer
 * never depends on a plaintext. `shape` is `sealedShape` before decryption and the decrypted shape
 * after. A value must be a leaf at `data.<key>`, `stringData.<key>` (a manifest) or `<key>` (a
 * map), encrypted, labelled `str`, and not empty; a manifest uses `data` or `stringData`, not both;
 * `nulls` (the render side knows them) are refused at value paths. Throws SopsValueUnprotected
 * naming `file` and the key path, never a value. Pure.
 */
export function checkSecretLeaves(
  sealed: SealedSops,
  file: string,
  shape: SecretShape,
  nulls: readonly SealedPath[] = [],
): void {
  const problem = secretLeafProblem(sealed, file, shape, nulls);
  if (problem) throw problem;
}

function secretLeafProblem(
  sealed: SealedSops,
  file: string,
  shape: SecretShape,
  nulls: readonly SealedPath[],
): GroundworkError | undefined {
  const fail = (message: string, fix = ENCRYPT_FIX) => sopsValueUnprotected(file, message, fix);
  const top = new Set(sealed.leaves.map((l) => l.path[0]).concat(nulls.map((p) => p[0])));
  if (shape !== 'map' && top.has('data') && top.has('stringData'))
    return fail(
      'has both data and stringData: Kubernetes takes stringData over data, and an empty stringData value is neither encrypted nor in the MAC, so anyone could blank a value',
      'keep the values under one of data or stringData',
    );
  const isValuePath = (path: SealedPath) =>
    shape === 'manifest'
      ? path[0] === 'data' || path[0] === 'stringData'
      : shape === 'map'
        ? true
        : path.length === 1 || path[0] === 'data' || path[0] === 'stringData';
  for (const path of nulls)
    if (isValuePath(path))
      return fail(
        `the value at ${pathText(path)} is null: a Secret value is text`,
        'give it a value, or remove the key',
      );
  for (const leaf of sealed.leaves) {
    const { path } = leaf;
    if (!isValuePath(path)) continue;
    const where = pathText(path);
    const depth = shape === 'manifest' || (shape === 'unknown' && path.length > 1) ? 2 : 1;
    if (path.length !== depth || typeof path[depth - 1] !== 'string')
      return fail(
        `the value at ${where} is not a key of text: a Secret maps keys to text`,
        'keep one level of keys to strings (a manifest: data.<key> or stringData.<key>)',
      );
    const key = path[depth - 1] as string;
    if (!SECRET_KEY.test(key))
      return fail(
        `${where} is not a valid Secret key (letters, digits, -, _ and ., at most 253)`,
        'rename the key',
      );
    if ('plain' in leaf)
      return leaf.plain === ''
        ? fail(
            `the value at ${where} is empty: sops neither encrypts an empty value nor puts it in its MAC, so anyone could add or blank one`,
            'give it a value, or remove the key',
          )
        : fail(
            `the value at ${where} is not encrypted (the file's encrypted_regex, encrypted_suffix or unencrypted_* rules, or an _unencrypted key, leave it readable), so anyone could change it without the key`,
          );
    if (ENC_SHAPE.exec(leaf.enc)?.[1] !== 'str')
      return fail(
        `the value at ${where} is not encrypted as text (type:str): its type label is not authenticated, so it could be changed to probe the value`,
        'quote numbers and booleans in the plaintext (`port: "5432"`) and encrypt it again',
      );
  }
  return undefined;
}
