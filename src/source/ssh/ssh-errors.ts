import { GroundworkError } from '../../core/errors.js';
import { fingerprint } from './known-hosts.js';

// Errors of the SSH transport. None holds key material: a host key appears as its type and
// fingerprint, a deploy key never.

const SCAN_FIX = (host: string, port: number) =>
  `check the key out of band (the forge's published fingerprints, or \`ssh-keyscan ${port === 22 ? '' : `-p ${port} `}${host} | ssh-keygen -lf -\` from a network you trust), then put the host's line in known_hosts: the known_hosts key of the credentials Secret, or the file GROUNDWORK_GIT_KNOWN_HOSTS_FILE names (docs/repositories.md)`;

/** known_hosts pins keys for the host, and the server presented another (or a revoked one). */
export class HostKeyMismatchError extends GroundworkError {
  constructor(opts: {
    host: string;
    port: number;
    name: string;
    type: string;
    blob: Buffer;
    revoked?: boolean;
  }) {
    super({
      code: 'HostKeyMismatch',
      subject: opts.name,
      message: opts.revoked
        ? `the server presented a host key known_hosts marks @revoked: ${opts.type} ${fingerprint(opts.blob)}`
        : `the server presented a host key that known_hosts does not pin for ${opts.name}: ${opts.type} ${fingerprint(opts.blob)} (a rotated key, another server, or someone in between)`,
      fix: SCAN_FIX(opts.host, opts.port),
    });
  }
}

/** No known_hosts at all, or none of its lines is for this host: keys are never trusted on first use. */
export class HostKeyNotPinnedError extends GroundworkError {
  constructor(opts: {
    host: string;
    port: number;
    name: string;
    detail: string;
    presented?: { type: string; blob: Buffer };
  }) {
    const seen = opts.presented
      ? `; the server presented ${opts.presented.type} ${fingerprint(opts.presented.blob)}`
      : '';
    super({
      code: 'HostKeyNotPinned',
      subject: opts.name,
      message: `${opts.detail}${seen}: host keys are pinned, never trusted on first use`,
      fix: SCAN_FIX(opts.host, opts.port),
    });
  }
}

/** The SSH server refused the deploy key (or the login name). Same code as HTTP's 401/403. */
export class SshAuthFailedError extends GroundworkError {
  constructor(url: string, user: string) {
    super({
      code: 'AuthFailed',
      subject: url,
      message: `the server refused the deploy key for the user ${user}`,
      fix: 'add the deploy key’s public key (identity.pub, or ssh-keygen -y -f <key>) to the repository with read access, and check the user in the URL (git@ for GitHub, GitLab, Gitea)',
    });
  }
}
