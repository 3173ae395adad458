import { createHash } from 'node:crypto';
import type * as openpgp from 'openpgp';
import { GroundworkError } from '../../core/errors.js';
import { parseAllowedSigners, type AllowedSigner } from './allowed-signers.js';

/** The keys commits and tags may be signed with: OpenPGP public keys and SSH allowed signers. */
export interface TrustedKeys {
  /** Where they came from (`secret/groundwork-system/trusted-keys`), for messages. */
  readonly source: string;
  readonly openpgp: readonly openpgp.PublicKey[];
  readonly ssh: readonly AllowedSigner[];
  /** `sha256:<hex>` of the key material: changes when a key is added, removed or rotated. */
  readonly fingerprint: string;
}

/** Past these sizes a trusted-keys entry or set is refused (a real keyring is a few KiB). */
export const MAX_KEY_ENTRY_BYTES = 256 * 1024;
export const MAX_KEY_SET_BYTES = 1024 * 1024;
const MAX_ENTRIES = 256;

const PGP_ARMOR = '-----BEGIN PGP PUBLIC KEY BLOCK-----';

function invalid(source: string, entry: string | undefined, message: string, fix: string): GroundworkError {
  return new GroundworkError({
    code: 'TrustedKeysInvalid',
    subject: entry === undefined ? source : `${source} key ${JSON.stringify(entry.slice(0, 64))}`,
    message,
    fix,
  });
}

/**
 * Reads a set of trusted keys from the entries of a Secret or ConfigMap (`name → text`): an entry
 * whose text holds `-----BEGIN PGP PUBLIC KEY BLOCK-----` is a keyring of armored OpenPGP public
 * keys (`gpg --armor --export`), any other an SSH allowed signers file (`ssh-keygen(1)`).
 *
 * Throws `TrustedKeysInvalid` naming the source, the entry and (for allowed signers) the line:
 * an entry or set that is too large, a private key, an unreadable keyring or line, or no key at
 * all. Never quotes the content.
 */
export async function parseTrustedKeys(
  entries: Readonly<Record<string, string>>,
  source: string,
): Promise<TrustedKeys> {
  const names = Object.keys(entries).sort();
  if (names.length > MAX_ENTRIES)
    throw invalid(
      source,
      undefined,
      `${names.length} entries (at most ${MAX_ENTRIES})`,
      'keep one entry per keyring or signers file',
    );
  let total = 0;
  const pgp: openpgp.PublicKey[] = [];
  const ssh: AllowedSigner[] = [];
  const hash = createHash('sha256');
  for (const name of names) {
    const text = entries[name]!;
    const bytes = Buffer.byteLength(text);
    total += bytes;
    if (bytes > MAX_KEY_ENTRY_BYTES)
      throw invalid(
        source,
        name,
        `is ${bytes} bytes (at most ${MAX_KEY_ENTRY_BYTES})`,
        'export only the public keys that sign commits (gpg --armor --export <id>)',
      );
    if (total > MAX_KEY_SET_BYTES)
      throw invalid(
        source,
        undefined,
        `holds more than ${MAX_KEY_SET_BYTES} bytes of keys`,
        'keep only the keys that sign commits',
      );
    hash.update(`${name}\0${text}\0`);
    if (text.includes(PGP_ARMOR)) pgp.push(...(await readPgp(text, source, name)));
    else if (text.includes('-----BEGIN PGP PRIVATE KEY BLOCK-----'))
      throw invalid(
        source,
        name,
        'holds a private key',
        'put only public keys here (gpg --armor --export <id>), and remove the private key from the cluster',
      );
    else {
      const { signers, problems } = parseAllowedSigners(text);
      const first = problems[0];
      if (first)
        throw invalid(
          source,
          name,
          `line ${first.line}: ${first.reason}${problems.length > 1 ? ` (and ${problems.length - 1} more lines)` : ''}`,
          'write one "principals [options] keytype base64-key" per line, as ssh-keygen -Y verify reads allowed signers',
        );
      ssh.push(...signers);
    }
  }
  if (pgp.length === 0 && ssh.length === 0)
    throw invalid(
      source,
      undefined,
      'holds no key',
      'add an armored OpenPGP public key or an allowed signers file',
    );
  return { source, openpgp: pgp, ssh, fingerprint: `sha256:${hash.digest('hex')}` };
}

async function readPgp(text: string, source: string, name: string): Promise<openpgp.PublicKey[]> {
  // Loaded with the first OpenPGP key, not with the module: 2 MB of heap otherwise held for nothing.
  const lib = await import('openpgp');
  let keys: openpgp.Key[];
  try {
    keys = await lib.readKeys({ armoredKeys: text });
  } catch {
    throw invalid(
      source,
      name,
      'is not a readable OpenPGP keyring',
      'export it again with gpg --armor --export <id>',
    );
  }
  if (keys.some((k) => k.isPrivate()))
    throw invalid(
      source,
      name,
      'holds a private key',
      'put only public keys here (gpg --armor --export <id>), and remove the private key from the cluster',
    );
  return keys as openpgp.PublicKey[];
}
