import { GroundworkError } from '../../core/errors.js';

/** A git repository reached over SSH: where to connect, as whom, and the path `git-upload-pack` is given. */
export interface SshRepoUrl {
  readonly kind: 'ssh';
  /** The login name: from the URL, else `git` (GitHub, GitLab, Bitbucket, Gitea and Forgejo all use it). */
  readonly user: string;
  /** A host name or an IP address (IPv6 without brackets). */
  readonly host: string;
  /** @default 22 */
  readonly port: number;
  /** The repository path on the server, as `git-upload-pack` receives it (`acme/platform.git`, `/srv/git/p.git`, `~/p.git`). */
  readonly path: string;
  /** The URL as given (it holds no secret: passwords in SSH URLs are refused). */
  readonly url: string;
}

/** Longer URLs are refused: no forge hands out one this long, and it bounds what a message repeats. */
export const MAX_REPO_URL_LENGTH = 2048;

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
/** What a repository path may hold: no quote, space, backslash, `!`, `$`, `;`, backtick or control character reaches the server's shell. */
const PATH = /^[A-Za-z0-9._~/@+=,%-]+$/;
/** `ssh://[user@]host[:port]/path`; the host may be an IPv6 literal in brackets. */
const SSH_SCHEME = /^ssh:\/\/(?:([^@/]*)@)?(\[[^\]/]*\]|[^:/]*)(?::([^/]*))?(\/.*)$/i;
/** git's "scp-like" syntax, `[user@]host:path`: the first colon comes before any slash. */
const SCP_LIKE = /^(?:([^@/:]*)@)?(\[[^\]/]*\]|[^:/[\]]*):(.*)$/;

/** Whether `url` is one of the SSH forms (`ssh://…` or scp-like `user@host:path`), by its shape only. */
export function looksLikeSsh(url: string): boolean {
  if (/^ssh:\/\//i.test(url)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false; // another scheme
  return SCP_LIKE.test(url) && !/^[A-Za-z]:[\\/]/.test(url); // not a Windows drive letter
}

/**
 * Reads an SSH repository URL: `ssh://[user@]host[:port]/path` or scp-like `[user@]host:path`, as
 * git does (a `/~` at the start of an `ssh://` path becomes `~`, relative to the login's home).
 * Strict where git is lenient, because the parts reach a network connection and a remote shell:
 * the user and host must be a login name and a DNS name or IP address (never starting with `-`,
 * so nothing can pose as an option), the port 1 to 65535, the path made of `PATH`'s characters
 * (no quote, space, `!`, `$`, `;`, backslash or control character), no password in the URL, no
 * `transport::address` (`ext::`) form, at most `MAX_REPO_URL_LENGTH` characters. Throws
 * `UnsupportedRepoUrl` naming the part that is wrong and how to write it; pure.
 *
 * @example
 * parseSshUrl('git@github.com:acme/platform.git')
 * // { kind: 'ssh', user: 'git', host: 'github.com', port: 22, path: 'acme/platform.git', url: … }
 */
export function parseSshUrl(url: string): SshRepoUrl {
  const refuse = (message: string): never => {
    throw new GroundworkError({
      code: 'UnsupportedRepoUrl',
      subject: shown(url),
      message,
      fix: 'write ssh://git@host[:port]/path/repo.git or git@host:path/repo.git (a login name, a DNS name or IP address, a path of letters, digits and ._~/@+=,%-)',
    });
  };
  if (url.length > MAX_REPO_URL_LENGTH) refuse(`longer than ${MAX_REPO_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(url)) refuse('holds a space or a control character');
  const scheme = SSH_SCHEME.exec(url);
  const scp = scheme ? undefined : SCP_LIKE.exec(url);
  const parts = scheme ?? scp ?? refuse('not an ssh:// or scp-like (user@host:path) URL');
  const [, rawUser, rawHost = '', rawPort, rawPath = ''] = scheme ?? [
    parts[0],
    parts[1],
    parts[2],
    undefined,
    parts[3],
  ];
  if (rawUser !== undefined && rawUser.includes(':'))
    refuse(
      'holds a password: SSH authenticates with a key (the Secret’s identity), never a password in the URL',
    );
  if (!scheme && rawPath.startsWith(':')) refuse('a transport::address remote (such as ext::) is never run');
  const user = rawUser ?? 'git';
  if (!USER.test(user)) refuse(`the user ${JSON.stringify(user)} is not a login name`);
  const host = rawHost.startsWith('[') ? rawHost.slice(1, -1) : rawHost;
  const isV6 = rawHost.startsWith('[') && IPV6.test(host) && host.includes(':');
  if (!isV6 && !(IPV4.test(host) || (HOSTNAME.test(host) && host.length <= 253)))
    refuse(`the host ${JSON.stringify(rawHost)} is not a DNS name or IP address`);
  const port = rawPort === undefined || rawPort === '' ? 22 : Number(rawPort);
  if (!/^\d{1,5}$/.test(rawPort ?? '22') || !Number.isInteger(port) || port < 1 || port > 65_535)
    refuse(`the port ${JSON.stringify(rawPort)} is not 1 to 65535`);
  const path = scheme && rawPath.startsWith('/~') ? rawPath.slice(1) : rawPath;
  if (path === '' || path === '/') refuse('names no repository path');
  if (path.startsWith('-')) refuse('the path starts with "-"');
  if (!PATH.test(path)) refuse('the path holds a character outside letters, digits and ._~/@+=,%-');
  return { kind: 'ssh', user, host, port, path, url };
}

/** The two git services an SSH remote runs: fetch (`git-upload-pack`) and push (`git-receive-pack`). */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/**
 * The remote command that serves a fetch (or, with `service`, a push): `git-upload-pack '<path>'`,
 * the path quoted the way git quotes it (`sq_quote_buf`), so the server's shell reads it as one word.
 */
export function uploadPackCommand(path: string, service: GitService = 'git-upload-pack'): string {
  return `${service} '${path.replace(/'/g, `'\\''`).replace(/!/g, `'\\!'`)}'`;
}

/** The host as known_hosts names it: `host` on port 22, `[host]:port` on any other. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** A URL for messages: a `user:password@` dropped, at most 200 characters, control characters escaped. */
function shown(url: string): string {
  const clean = url.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?)[^@/]*:[^@/]*@/i, '$1');
  const cut = clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
  return JSON.stringify(cut).slice(1, -1);
}
