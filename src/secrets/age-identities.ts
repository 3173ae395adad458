import { identityToRecipient } from 'age-encryption';

/** age identities (secret keys) and their recipients (public keys), as read from a key file or a Secret. */
export interface AgeIdentities {
  /** `AGE-SECRET-KEY-1…` lines. Never logged, never in an error. */
  readonly identities: readonly string[];
  /** Their `age1…` recipients, for messages. */
  readonly recipients: readonly string[];
}

const IDENTITY_LINE = /^AGE-SECRET-KEY-(PQ-)?1[0-9A-Z]+$/;

/**
 * The identities of an age key file (`age-keygen`'s format: `#` comments, one identity a line;
 * sops reads the same from `SOPS_AGE_KEY_FILE`). Lines that are not identities are skipped
 * without being quoted anywhere; an identity age cannot read is dropped the same way, so the
 * caller's "no identity" error (SopsKeyMissing) covers a file of nothing usable.
 */
export async function parseAgeIdentities(text: string): Promise<AgeIdentities> {
  const identities: string[] = [];
  const recipients: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!IDENTITY_LINE.test(line)) continue;
    try {
      recipients.push(await identityToRecipient(line));
      identities.push(line);
    } catch {
      // Not a valid identity (checksum, length): skipped, never echoed.
    }
  }
  return { identities, recipients };
}
