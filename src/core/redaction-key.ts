import { createHmac, randomBytes } from 'node:crypto';

/**
 * Where a redaction key came from: `env` (`GROUNDWORK_REDACTION_KEY`), `file` (the CLI's key file),
 * `secret` (the agent's Secret) or `per-run` (random, this process only).
 */
type RedactionKeySource = 'env' | 'file' | 'secret' | 'per-run';

/** The HMAC key that Secret values are tagged with, and where it came from. */
export interface RedactionKey {
  readonly bytes: Buffer;
  readonly source: RedactionKeySource;
}

/** Shortest key accepted from outside (bytes): a shorter one could be guessed along with the value. */
export const MIN_REDACTION_KEY_BYTES = 16;

let current: RedactionKey | undefined;
let provider: (() => RedactionKey) | undefined;

/** A random key for this process only: tags compare within one run, never across runs. */
export function perRunRedactionKey(): RedactionKey {
  return { bytes: randomBytes(32), source: 'per-run' };
}

/**
 * Sets the key every redaction of this process uses from now on (the agent sets the key of its
 * Secret before its first cycle). Tags made before and after a change do not compare: set it once,
 * at start, before anything is redacted.
 */
export function useRedactionKey(key: RedactionKey): void {
  current = key;
  provider = undefined;
}

/**
 * Defers choosing the key to its first use, so that only a command that redacts reads or creates
 * a key file (the CLI installs `cliRedactionKey` this way). The provider runs at most once.
 */
export function useRedactionKeyProvider(next: () => RedactionKey): void {
  current = undefined;
  provider = next;
}

/**
 * The key of this process: the one set, else the provider's, else a random per-run key. There is
 * no unkeyed fallback: a tag is never a plain digest of the value.
 */
export function redactionKey(): RedactionKey {
  current ??= provider ? provider() : perRunRedactionKey();
  provider = undefined;
  return current;
}

/**
 * `<redacted hmac:xxxxxxxx>`: eight hex digits of HMAC-SHA256 under `key` over `parts`, each
 * followed by a NUL byte (so `['ab', 'c']` and `['a', 'bc']` differ). Equal parts under one key
 * give one tag, so a diff shows *that* a value changed; without the key a reader cannot test a
 * guessed value against a tag. Tags made under different keys never compare.
 * @example
 * redactionTag(['hunter2']); // '<redacted hmac:5f0c2a91>' under some key
 */
export function redactionTag(
  parts: readonly (string | Uint8Array)[],
  key: RedactionKey = redactionKey(),
): string {
  const mac = createHmac('sha256', key.bytes);
  for (const part of parts) mac.update(part).update('\0');
  return `<redacted hmac:${mac.digest('hex').slice(0, 8)}>`;
}
