import { readFileSync, statSync } from 'node:fs';
import { InvalidCredentialsError } from '../source-errors.js';
import { MAX_KNOWN_HOSTS_BYTES } from './known-hosts.js';

/**
 * What an SSH fetch authenticates and checks with: the deploy key and the host keys it pins. The
 * identity is a secret (never logged, never in a status, Event or metric, never handed to the
 * renderer); known_hosts is not, but it decides whom the key is shown to.
 */
export interface SshCredentials {
  /** The deploy key: an OpenSSH (`-----BEGIN OPENSSH PRIVATE KEY-----`) or PEM private key. */
  readonly identity?: string;
  /** The passphrase of an encrypted identity. */
  readonly passphrase?: string;
  /** known_hosts text pinning the git host's keys (`ssh-keyscan` output, checked). */
  readonly knownHosts?: string;
}

/** How to give SSH credentials (docs/repositories.md). */
export const SSH_FIX =
  'give the deploy key (an OpenSSH or PEM private key) and known_hosts: the keys identity and known_hosts of the credentials Secret, or the files GROUNDWORK_GIT_SSH_KEY_FILE and GROUNDWORK_GIT_KNOWN_HOSTS_FILE (docs/repositories.md)';

/** A deploy key file larger than this is not a key (an RSA 4096 key in OpenSSH format is about 3.4 KiB). */
export const MAX_IDENTITY_BYTES = 64 * 1024;

/**
 * The SSH credentials of the environment: the files `GROUNDWORK_GIT_SSH_KEY_FILE` (the deploy
 * key) and `GROUNDWORK_GIT_KNOWN_HOSTS_FILE` (read now), and `GROUNDWORK_GIT_SSH_KEY_PASSPHRASE`.
 * Undefined when neither file is named. Throws `InvalidCredentials` naming the variable and the
 * path (never the content) for a file that cannot be read or is too large.
 */
export function sshCredentialsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): SshCredentials | undefined {
  const keyFile = env.GROUNDWORK_GIT_SSH_KEY_FILE || undefined;
  const hostsFile = env.GROUNDWORK_GIT_KNOWN_HOSTS_FILE || undefined;
  if (!keyFile && !hostsFile) return undefined;
  const passphrase = env.GROUNDWORK_GIT_SSH_KEY_PASSPHRASE || undefined;
  return {
    ...(keyFile ? { identity: readBounded('GROUNDWORK_GIT_SSH_KEY_FILE', keyFile, MAX_IDENTITY_BYTES) } : {}),
    ...(hostsFile
      ? { knownHosts: readBounded('GROUNDWORK_GIT_KNOWN_HOSTS_FILE', hostsFile, MAX_KNOWN_HOSTS_BYTES) }
      : {}),
    ...(passphrase ? { passphrase } : {}),
  };
}

/**
 * The SSH credentials of a Secret laid out as Flux's: `identity`, `known_hosts`, and `password`
 * as the identity's passphrase; `decode` reads one key (base64, undefined when absent). Undefined
 * without an `identity`.
 */
export function sshCredentialsFromSecret(
  data: Readonly<Record<string, string>>,
  decode: (key: string) => string | undefined,
): SshCredentials | undefined {
  if (data.identity === undefined) return undefined;
  const identity = decode('identity');
  if (!identity) throw new InvalidCredentialsError('Secret', 'data.identity is empty', SSH_FIX);
  if (identity.length > MAX_IDENTITY_BYTES)
    throw new InvalidCredentialsError(
      'Secret',
      `data.identity is larger than ${MAX_IDENTITY_BYTES} bytes`,
      SSH_FIX,
    );
  const knownHosts = decode('known_hosts');
  const passphrase = decode('password');
  return {
    identity: `${identity}\n`, // the decoder drops one trailing newline; key parsers want it back
    ...(knownHosts ? { knownHosts } : {}),
    ...(passphrase ? { passphrase } : {}),
  };
}

function readBounded(variable: string, path: string, max: number): string {
  try {
    const size = statSync(path).size;
    if (size > max) throw new Error(`larger than ${max} bytes`);
    return readFileSync(path, 'utf8');
  } catch (err) {
    const why = err instanceof Error ? ((err as { code?: string }).code ?? err.message) : 'unreadable';
    throw new InvalidCredentialsError('environment', `${variable}=${path} cannot be read (${why})`, SSH_FIX);
  }
}
