import { GroundworkError } from '../core/errors.js';

/**
 * The errors of SOPS decryption. Each names the file (its path in the repository) and, where one
 * applies, the key path; none ever quotes a value, decrypted or not: Flux's decryptor once put a
 * plaintext value in its "does not match sops' data format" error (fluxcd/kustomize-controller#1371).
 */

/** The file is not a SOPS file Groundwork reads (shape, metadata, an `ENC[…]` value, key sources). */
export function sopsFileInvalid(file: string, message: string): GroundworkError {
  return new GroundworkError({
    code: 'SopsFileInvalid',
    subject: file,
    message,
    fix: 'encrypt the file with `sops --encrypt --age <recipient>` (or `groundwork secret encrypt`) and commit what it writes',
  });
}

/** No age identity to decrypt with (no key file, no Secret, or nothing in it that is an identity). */
export function sopsKeyMissing(file: string, message: string): GroundworkError {
  return new GroundworkError({
    code: 'SopsKeyMissing',
    subject: file,
    message,
    fix: 'give the agent `--decryption-secret <Secret with an age.agekey key>`, or export SOPS_AGE_KEY_FILE for plan, apply and drift',
  });
}

/** A value, the data key or the MAC does not verify: the file was changed after sops wrote it. */
export function sopsMacMismatch(file: string, message: string): GroundworkError {
  return new GroundworkError({
    code: 'SopsMacMismatch',
    subject: file,
    message,
    fix: 're-encrypt from the plaintext with sops (`sops edit`), never edit ENC[…] values by hand; if nobody did, treat the repository as tampered with',
  });
}

/** None of the file's recipients is one of the identities given. */
export function sopsNoMatchingKey(
  file: string,
  opts: { fileRecipients: readonly string[]; ours: readonly string[] },
): GroundworkError {
  return new GroundworkError({
    code: 'SopsNoMatchingKey',
    subject: file,
    message: `encrypted for ${list(opts.fileRecipients)}, and the identities given are for ${list(opts.ours)}`,
    fix: `add the recipient ${opts.ours[0] ?? '<age1…>'} to the file (\`sops updatekeys\`, or \`sops --rotate --add-age\`), or give the identity the file was encrypted for`,
  });
}

function list(recipients: readonly string[]): string {
  return recipients.length ? recipients.join(', ') : 'no age recipient';
}

/**
 * A Secret value sops cannot protect (empty, readable, relabelled, beside another source): anyone
 * who can write the file could change it without the key and its MAC would still verify.
 */
export function sopsValueUnprotected(file: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'SopsValueUnprotected', subject: file, message, fix });
}
