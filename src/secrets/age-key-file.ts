import { generateX25519Identity, identityToRecipient } from 'age-encryption';

/** A new age identity, in the text of a key file. Holds a private key: never log it. */
export interface AgeKeyFile {
  /** The file's text: `age-keygen`'s format. */
  text: string;
  /** The public key (`age1…`) to encrypt for. */
  recipient: string;
}

/**
 * A new age X25519 identity as `age-keygen` writes it: `# created: <RFC 3339 time>`,
 * `# public key: age1…`, then the `AGE-SECRET-KEY-1…` line, so age, sops (`SOPS_AGE_KEY_FILE`,
 * `sops/age/keys.txt`), Flux and Groundwork (`parseAgeIdentities`, a `*.agekey` Secret key) read
 * it. In memory only: the caller writes it, privately.
 */
export async function newAgeKeyFile(now: Date = new Date()): Promise<AgeKeyFile> {
  const identity = await generateX25519Identity();
  const recipient = await identityToRecipient(identity);
  const created = now.toISOString().replace(/\.\d+Z$/, 'Z');
  return { text: `# created: ${created}\n# public key: ${recipient}\n${identity}\n`, recipient };
}
