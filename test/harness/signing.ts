import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrustedKeys, type TrustedKeys } from '../../src/source/trust/trusted-keys.js';
import type { GitRepo } from './git-repo.js';

// Real signing keys for trusted-commit tests: gpg in a temporary GNUPGHOME (batch key generation,
// no passphrase) and ssh-keygen keys. Commits and tags are signed by the real `git commit -S` /
// `git tag -s`, through a gpg wrapper script (git's test environment passes no GNUPGHOME).

/** An OpenPGP key in its own GNUPGHOME, with a `gpg.program` wrapper that uses it. */
export interface GpgKey {
  readonly home: string;
  readonly fingerprint: string;
  /** `gpg --armor --export`: what goes into the trusted keys. */
  readonly publicKey: string;
  /** A script for git's `gpg.program`, bound to `home` (and to `fakedTime` when given). */
  readonly program: string;
  /** `git -c` arguments that make `commit -S` / `tag -s` sign with this key. */
  readonly gitConfig: readonly string[];
}

function gpg(home: string, args: readonly string[], input?: string): string {
  return execFileSync('gpg', ['--batch', '--yes', '--quiet', '--homedir', home, ...args], {
    encoding: 'utf8',
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(input !== undefined ? { input } : {}),
  });
}

/**
 * Generates an ed25519 signing key in `<dir>/<name>` (`gpg --batch --gen-key`). `fakedTime`
 * (gpg's `--faked-system-time`, e.g. `20200101T000000`) makes the key and every signature made
 * through `program` dated then, so `expire: '1d'` gives a key that expired long ago.
 */
export function gpgKey(
  dir: string,
  name: string,
  opts: { expire?: string; fakedTime?: string } = {},
): GpgKey {
  const home = join(dir, name);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const faked = opts.fakedTime ? ['--faked-system-time', `${opts.fakedTime}!`] : [];
  gpg(
    home,
    [...faked, '--gen-key'],
    [
      '%no-protection',
      'Key-Type: eddsa',
      'Key-Curve: ed25519',
      'Key-Usage: sign',
      `Name-Real: ${name}`,
      `Name-Email: ${name}@example.com`,
      `Expire-Date: ${opts.expire ?? '0'}`,
      '%commit',
      '',
    ].join('\n'),
  );
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(home, ['--with-colons', '--list-keys']))![1]!;
  const program = join(home, 'gpg-program.sh');
  writeFileSync(program, `#!/bin/sh\nexec gpg --homedir '${home}' ${faked.join(' ')} "$@"\n`);
  chmodSync(program, 0o755);
  return {
    home,
    fingerprint,
    publicKey: gpg(home, ['--armor', '--export', fingerprint]),
    program,
    gitConfig: [
      '-c',
      `gpg.program=${program}`,
      '-c',
      'gpg.format=openpgp',
      '-c',
      `user.signingkey=${fingerprint}`,
    ],
  };
}

/** Revokes the key (its own revocation certificate, as gpg wrote it at generation) and returns the public key now carrying the revocation. */
export function revokeGpgKey(key: GpgKey): string {
  const dir = join(key.home, 'openpgp-revocs.d');
  const cert = readFileSync(
    join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.rev'))!,
    ),
    'utf8',
  );
  // gpg prefixes the armor line with ':' so the certificate is not imported by accident.
  gpg(key.home, ['--import'], cert.replace(/^:-----BEGIN/m, '-----BEGIN'));
  return gpg(key.home, ['--armor', '--export', key.fingerprint]);
}

/** An SSH key pair made by ssh-keygen, and its allowed signers line. */
export interface SshKey {
  readonly privateKey: string;
  /** The `.pub` line: `ssh-ed25519 AAAA… comment`. */
  readonly publicLine: string;
  readonly gitConfig: readonly string[];
  /** `<principal> namespaces="git" <key>` for an allowed signers file. */
  allowedSigner(principal: string, options?: string): string;
}

/** `ssh-keygen -t <type>` without passphrase in `<dir>/<name>`. */
export function sshKey(
  dir: string,
  name: string,
  type: 'ed25519' | 'ecdsa' | 'rsa' = 'ed25519',
  bits?: number,
): SshKey {
  mkdirSync(dir, { recursive: true });
  const privateKey = join(dir, name);
  execFileSync(
    'ssh-keygen',
    [
      '-q',
      '-t',
      type,
      ...(bits ? ['-b', String(bits)] : []),
      '-N',
      '',
      '-C',
      `${name}@example.com`,
      '-f',
      privateKey,
    ],
    { stdio: 'ignore' },
  );
  const publicLine = readFileSync(`${privateKey}.pub`, 'utf8').trim();
  const [ktype, b64] = publicLine.split(' ');
  return {
    privateKey,
    publicLine,
    gitConfig: ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${privateKey}`],
    allowedSigner: (principal, options = 'namespaces="git"') =>
      `${principal} ${options ? `${options} ` : ''}${ktype} ${b64}`,
  };
}

/** `ssh-keygen -Y sign -n <namespace>` of `data`: the armored SSHSIG. */
export function sshSign(key: SshKey, data: string | Buffer, namespace = 'git'): string {
  const file = `${key.privateKey}.data-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  writeFileSync(file, data);
  execFileSync('ssh-keygen', ['-Y', 'sign', '-q', '-n', namespace, '-f', key.privateKey, file], {
    stdio: 'ignore',
  });
  return readFileSync(`${file}.sig`, 'utf8');
}

/** Commits everything in the work clone, signed with `signer`'s git config; returns the commit id. */
export function signedCommit(
  repo: GitRepo,
  message: string,
  signer: { gitConfig: readonly string[] },
): string {
  repo.git('add', '-A');
  repo.git(...signer.gitConfig, 'commit', '-q', '-S', '--allow-empty', '-m', message);
  return repo.git('rev-parse', 'HEAD');
}

/** A signed annotated tag at HEAD (`git tag -s`). */
export function signedTag(repo: GitRepo, name: string, signer: { gitConfig: readonly string[] }): void {
  repo.git(...signer.gitConfig, 'tag', '-s', name, '-m', `release ${name}`);
}

/**
 * The two trusted signers of the trust tests, made in `root`: alice (OpenPGP) and carol (SSH,
 * `carol@example.com`), and the trusted keys holding both, as a Secret's files would.
 */
export async function trustedSigners(
  root: string,
): Promise<{ alice: GpgKey; carol: SshKey; keys: TrustedKeys }> {
  const alice = gpgKey(root, 'alice');
  const carol = sshKey(root, 'carol');
  const keys = await parseTrustedKeys(
    { 'alice.asc': alice.publicKey, allowed_signers: carol.allowedSigner('carol@example.com') },
    'secret/groundwork-system/trusted-keys',
  );
  return { alice, carol, keys };
}
