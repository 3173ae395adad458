/**
 * A git commit or tag object split into what was signed and the signature over it, as
 * `git verify-commit` and `git verify-tag` split them.
 *
 * - A commit carries its signature in a `gpgsig` header (SHA-1 repositories; `gpgsig-sha256` in
 *   SHA-256 ones), its lines continued with a leading space. The signed payload is the object with
 *   that header removed.
 * - A tag carries its signature at the end of its message, from a line `-----BEGIN PGP SIGNATURE-----`
 *   or `-----BEGIN SSH SIGNATURE-----` to the end. The payload is everything before that line.
 */
export interface SignedObject {
  /** The bytes that were signed, as text (git objects are text; the signature covers them exactly). */
  readonly payload: string;
  /** The armored signature; undefined when the object is not signed. */
  readonly signature: string | undefined;
  /** The signature's format, from its armor; undefined when unsigned. */
  readonly format: SignatureFormat | undefined;
}

/** `openpgp` (gpg), `ssh` (gpg.format=ssh), `x509` (gpgsm, not verified here), `unknown`. */
export type SignatureFormat = 'openpgp' | 'ssh' | 'x509' | 'unknown';

const ARMORS: readonly (readonly [string, SignatureFormat])[] = [
  ['-----BEGIN PGP SIGNATURE-----', 'openpgp'],
  ['-----BEGIN PGP MESSAGE-----', 'openpgp'],
  ['-----BEGIN SSH SIGNATURE-----', 'ssh'],
  ['-----BEGIN SIGNED MESSAGE-----', 'x509'],
];

/** The format an armored signature announces on its first line. */
export function signatureFormat(signature: string): SignatureFormat {
  const first = signature.trimStart().split('\n', 1)[0]!.trim();
  return ARMORS.find(([armor]) => first === armor)?.[1] ?? 'unknown';
}

/**
 * Splits a raw commit object (the content, without git's `commit <size>\0` prefix) into payload
 * and signature. Only headers count (lines before the first empty line): a `gpgsig` line in the
 * message is message text. A commit with two signature headers is refused by the caller through
 * `format: 'unknown'`, since git would verify only one of them.
 */
export function splitCommit(raw: string): SignedObject {
  const end = raw.indexOf('\n\n');
  const headerText = end < 0 ? raw : raw.slice(0, end + 1);
  const rest = end < 0 ? '' : raw.slice(end + 1);
  const lines = headerText.split('\n');
  const kept: string[] = [];
  const sigs: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (current && line.startsWith(' ')) {
      current.push(line.slice(1));
      continue;
    }
    current = undefined;
    if (line.startsWith('gpgsig ') || line.startsWith('gpgsig-sha256 ')) {
      current = [line.slice(line.indexOf(' ') + 1)];
      sigs.push(current);
      continue;
    }
    kept.push(line);
  }
  const payload = kept.join('\n') + rest;
  if (sigs.length === 0) return { payload, signature: undefined, format: undefined };
  const signature = `${sigs[0]!.join('\n')}\n`;
  return { payload, signature, format: sigs.length > 1 ? 'unknown' : signatureFormat(signature) };
}

/** Splits a raw annotated tag object into payload and the signature at the end of its message. */
export function splitTag(raw: string): SignedObject {
  // As git's parse_signed_buffer: the last line that opens a signature armor starts the signature.
  let at = -1;
  for (const [armor] of ARMORS) {
    const i = raw.lastIndexOf(`\n${armor}`);
    if (i >= 0) at = Math.max(at, i + 1);
  }
  if (at < 0) return { payload: raw, signature: undefined, format: undefined };
  const signature = raw.slice(at);
  return { payload: raw.slice(0, at), signature, format: signatureFormat(signature) };
}
