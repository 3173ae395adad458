import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Debian's OpenSSH server (package openssh-server; `.ci/run` installs it). */
export const SSHD = '/usr/sbin/sshd';

/** A key pair made by `ssh-keygen` for a test: the private key file's text and the public key line. */
export interface TestKey {
  readonly file: string;
  readonly privateKey: string;
  readonly publicKey: string;
}

/** A real OpenSSH server on loopback, for the SSH transport's tests. */
export interface SshServer {
  readonly address: string;
  readonly port: number;
  /** The login name: the user running the tests (sshd can only switch to itself when not root). */
  readonly user: string;
  /** The host keys the server presents (public key lines, `ssh-ed25519 AAAA…` and `ecdsa-sha2-nistp256 AAAA…`). */
  readonly hostKeys: { readonly ed25519: string; readonly ecdsa: string };
  /** The key authorized to log in (authorized_keys with `restrict`: no pty, no forwarding). */
  readonly deployKey: TestKey;
  /** A key the server does not know. */
  readonly strangerKey: TestKey;
  /** known_hosts pinning the server's ed25519 key for its name (`host` on 22, else `[host]:port`). */
  readonly knownHosts: string;
  /** `ssh://user@address:port<path>`. */
  sshUrl(path: string): string;
  /** The server's own temporary directory (scripts for `command=` live well there). */
  readonly dir: string;
  /**
   * Authorizes a new key whose logins run `command` whatever the client asks (`restrict,command=`),
   * e.g. a script that answers like a hostile server; returns the key.
   */
  authorizeCommand(name: string, command: string): TestKey;
  /** What sshd logged (stderr, `-e`). */
  log(): string;
  stop(): Promise<void>;
}

/** Makes an ed25519 key pair with `ssh-keygen` in `dir`. */
export function makeKey(dir: string, name: string, type: 'ed25519' | 'ecdsa' = 'ed25519'): TestKey {
  const file = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', name, '-f', file]);
  return {
    file,
    privateKey: readFileSync(file, 'utf8'),
    publicKey: readFileSync(`${file}.pub`, 'utf8').trim(),
  };
}

/**
 * Starts Debian's `sshd` in the foreground (`-D -e`) with a config of its own in a temporary
 * directory: its own ed25519 and ECDSA host keys, `AuthorizedKeysFile` there (the deploy key,
 * `restrict`ed), public-key login only, listening on `address` and `port` (a free port when 0).
 * sshd runs as the test's user and logs in as that user; as root it needs `/run/sshd` (privilege
 * separation), which is made when missing. Git commands run with the user's shell and `PATH`.
 */
export async function startSshServer(opts: { address?: string; port?: number } = {}): Promise<SshServer> {
  const address = opts.address ?? '127.0.0.1';
  const dir = mkdtempSync(join(tmpdir(), 'gw-sshd-'));
  const hostEd = makeKey(dir, 'host_ed25519');
  const hostEcdsa = makeKey(dir, 'host_ecdsa', 'ecdsa');
  const deployKey = makeKey(dir, 'deploy');
  const strangerKey = makeKey(dir, 'stranger');
  writeFileSync(join(dir, 'authorized_keys'), `restrict ${deployKey.publicKey}\n`, { mode: 0o600 });
  const user = userInfo().username;
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const port = opts.port ?? (await freePort(address));
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      `ListenAddress ${address}`,
      `HostKey ${hostEd.file}`,
      `HostKey ${hostEcdsa.file}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const child = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  await listening(child, () => log);
  const name = port === 22 ? address : `[${address}]:${port}`;
  return {
    address,
    port,
    user,
    hostKeys: { ed25519: pub(hostEd), ecdsa: pub(hostEcdsa) },
    deployKey,
    strangerKey,
    knownHosts: `${name} ${pub(hostEd)}\n`,
    sshUrl: (path) => `ssh://${user}@${address}:${port}${path}`,
    dir,
    authorizeCommand: (keyName, command) => {
      const key = makeKey(dir, keyName);
      appendFileSync(join(dir, 'authorized_keys'), `restrict,command="${command}" ${key.publicKey}\n`);
      return key;
    },
    log: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The key's type and base64, without its comment. */
const pub = (key: TestKey) => key.publicKey.split(' ').slice(0, 2).join(' ');

function listening(child: ChildProcess, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sshd did not start: ${log()}`)), 15_000);
    const check = () => {
      if (/Server listening on/.test(log())) {
        clearTimeout(timer);
        child.stderr!.off('data', check);
        resolve();
      }
    };
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited ${code}: ${log()}`));
    });
  });
}

function freePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, address, () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
