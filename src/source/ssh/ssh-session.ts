import type { Algorithms, ClientChannel, ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { FetchFailedError, InvalidCredentialsError } from '../source-errors.js';
import { redact } from '../credentials.js';
import { blobType, hostKeyAlgorithms, hostKeys } from './known-hosts.js';
import { HostKeyMismatchError, HostKeyNotPinnedError, SshAuthFailedError } from './ssh-errors.js';
import { SSH_FIX, type SshCredentials } from './ssh-credentials.js';
import { knownHostsName, type SshRepoUrl } from './ssh-url.js';

/**
 * The algorithms offered besides host keys: modern only (as OpenSSH 9 offers by default, without
 * SHA-1, CBC, 3DES, arcfour, group1/group14-sha1 and compression).
 */
const ALGORITHMS: Required<Omit<Algorithms, 'serverHostKey'>> = {
  kex: [
    'curve25519-sha256',
    'curve25519-sha256@libssh.org',
    'ecdh-sha2-nistp256',
    'ecdh-sha2-nistp384',
    'ecdh-sha2-nistp521',
    'diffie-hellman-group16-sha512',
    'diffie-hellman-group18-sha512',
    'diffie-hellman-group14-sha256',
  ],
  cipher: [
    'chacha20-poly1305@openssh.com',
    'aes256-gcm@openssh.com',
    'aes128-gcm@openssh.com',
    'aes256-ctr',
    'aes192-ctr',
    'aes128-ctr',
  ],
  hmac: ['hmac-sha2-256-etm@openssh.com', 'hmac-sha2-512-etm@openssh.com', 'hmac-sha2-256', 'hmac-sha2-512'],
  compress: ['none'],
};

/** Host key algorithms offered when known_hosts pins nothing for the host (to name the key it presents). */
const ALL_HOST_KEY_TYPES = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
];

/** An authenticated SSH connection that runs commands; nothing else (no shell, no forwarding). */
export interface SshSession {
  /** Runs `command` in an exec channel (no pty, no environment, no agent, no X11). */
  exec(command: string): Promise<ClientChannel>;
  /** Ends the connection and every channel on it. */
  close(): void;
  /** False once the connection has closed (the server, the network or `close()` ended it). */
  readonly alive: boolean;
}

export interface OpenSshOptions {
  readonly target: SshRepoUrl;
  readonly credentials: SshCredentials | undefined;
  /** The TCP connection, the key exchange and authentication together. */
  readonly connectTimeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Opens an SSH connection to a git host with a deploy key, trusting the host only by known_hosts:
 * the host key the server presents must be one pinned for `host` (or `[host]:port`) and not
 * `@revoked`; there is no trust on first use. Only the pinned keys' algorithms are offered, so a
 * server holding several keys presents a pinned one. The deploy key is sent only after the host
 * key is accepted. No agent, no agent forwarding, no keyboard-interactive or password login.
 *
 * Throws `InvalidCredentials` (no deploy key, or one that does not parse or decrypt),
 * `HostKeyNotPinned` (no known_hosts line for the host: the message names the key the server
 * presented), `HostKeyMismatch`, `AuthFailed` (the server refused the key), `FetchFailed`
 * (network, timeout, protocol). No message holds key material.
 */
export async function openSsh(opts: OpenSshOptions): Promise<SshSession> {
  const { target, credentials } = opts;
  const name = knownHostsName(target.host, target.port);
  const identity = credentials?.identity;
  if (!identity)
    throw new InvalidCredentialsError('deploy key', `an SSH URL (${target.url}) needs a deploy key`, SSH_FIX);
  // Loaded here, not with the module: ssh2 makes a 16 MB WebAssembly memory (Poly1305) when
  // loaded, which an agent fetching over HTTPS would hold for its whole life.
  const { default: ssh2 } = await import('ssh2');
  const parsed = ssh2.utils.parseKey(identity, credentials.passphrase);
  if (parsed instanceof Error || (Array.isArray(parsed) && parsed.length === 0))
    throw new InvalidCredentialsError(
      'deploy key',
      `the deploy key cannot be read: ${redact(parsed instanceof Error ? parsed.message : 'no key', { ssh: credentials })}`,
      SSH_FIX,
    );
  const keys = hostKeys(credentials.knownHosts ?? '', name);
  let refusal: Error | undefined;
  const hostVerifier = (blob: Buffer): boolean => {
    const presented = { type: blobType(blob), blob };
    if (keys.revoked.some((k) => k.blob.equals(blob)))
      refusal = new HostKeyMismatchError({ ...target, name, ...presented, revoked: true });
    else if (keys.pinned.some((k) => k.blob.equals(blob))) return true;
    else if (keys.pinned.length > 0) refusal = new HostKeyMismatchError({ ...target, name, ...presented });
    else
      refusal = new HostKeyNotPinnedError({
        ...target,
        name,
        presented,
        detail:
          credentials.knownHosts === undefined
            ? 'no known_hosts was given'
            : `known_hosts has no line for ${name}${keys.certAuthorities ? ' (only @cert-authority lines: host certificates are not supported)' : ''}`,
      });
    return false;
  };
  const offered = hostKeyAlgorithms(
    keys.pinned.length > 0 ? keys.pinned.map((k) => k.type) : ALL_HOST_KEY_TYPES,
  );
  if (offered.length === 0)
    throw new HostKeyNotPinnedError({
      ...target,
      name,
      detail: `known_hosts pins only key types that are not accepted (${[...new Set(keys.pinned.map((k) => k.type))].join(', ')}): pin an ed25519, ECDSA or RSA key`,
    });
  const config: ConnectConfig = {
    host: target.host,
    port: target.port,
    username: target.user,
    privateKey: identity,
    ...(credentials.passphrase ? { passphrase: credentials.passphrase } : {}),
    readyTimeout: opts.connectTimeoutMs,
    hostVerifier,
    algorithms: { ...ALGORITHMS, serverHostKey: offered as ServerHostKeyAlgorithm[] },
    authHandler: ['publickey'],
    agentForward: false,
    tryKeyboard: false,
    keepaliveInterval: 15_000,
    keepaliveCountMax: 4,
  };
  const client = new ssh2.Client();
  const connected = new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', (err: Error & { level?: string }) => reject(connectError(err, refusal)));
    client.once('close', () =>
      reject(refusal ?? new FetchFailedError(target.url, 'the SSH connection closed during setup')),
    );
  });
  const abort = () => client.destroy();
  opts.signal?.addEventListener('abort', abort, { once: true });
  client.on('error', () => {}); // after setup: surfaced by the channel that was cut
  try {
    client.connect(config);
    await connected;
  } catch (err) {
    client.destroy();
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }

  function connectError(err: Error & { level?: string }, refused: Error | undefined): Error {
    if (refused) return refused;
    if (err.level === 'client-authentication') return new SshAuthFailedError(target.url, target.user);
    if (err.level === 'client-timeout')
      return new FetchFailedError(
        target.url,
        `no SSH session within ${opts.connectTimeoutMs} ms (connect, key exchange and login)`,
      );
    const code = (err as { code?: string }).code;
    return new FetchFailedError(
      target.url,
      redact(`SSH ${code ? `${code}: ` : ''}${err.message}`, { ssh: credentials }),
    );
  }

  let alive = true;
  client.once('close', () => (alive = false));
  return {
    get alive() {
      return alive;
    },
    exec: (command) =>
      new Promise((resolve, reject) => {
        client.exec(command, {}, (err, channel) =>
          err
            ? reject(
                new FetchFailedError(target.url, `the server refused to run git-upload-pack: ${err.message}`),
              )
            : resolve(channel),
        );
      }),
    close: () => client.end(),
  };
}
