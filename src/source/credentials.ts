import { InvalidCredentialsError } from './source-errors.js';
import {
  sshCredentialsFromEnv,
  sshCredentialsFromSecret,
  type SshCredentials,
} from './ssh/ssh-credentials.js';

export type { SshCredentials } from './ssh/ssh-credentials.js';

/**
 * Credentials for a git server: over HTTP(S) a token, or a username and a password; over SSH a
 * deploy key and the pinned host keys (`ssh`). Never logged: every message that could carry one
 * goes through `redact` first.
 */
export interface GitAuth {
  readonly username?: string;
  readonly password?: string;
  /** A personal access token, a GitHub App installation token, a GitLab project or deploy token. */
  readonly token?: string;
  /** For `ssh://` and scp-like URLs: the deploy key and known_hosts. */
  readonly ssh?: SshCredentials;
}

/**
 * The Basic-auth user name sent with a token when no username is given. GitHub documents it for
 * installation tokens and accepts it for personal access tokens; GitLab accepts any non-empty user
 * name with a personal, project or group access token; Bitbucket and Gitea accept a token as the
 * password too. Set `username` alongside `token` where a server wants a particular one (GitLab
 * deploy tokens: the deploy token's user name; GitLab OAuth tokens: `oauth2`).
 */
export const TOKEN_USERNAME = 'x-access-token';

/**
 * Reads credentials from the agent's environment: `GROUNDWORK_GIT_TOKEN` (with an optional
 * `GROUNDWORK_GIT_USERNAME`), or `GROUNDWORK_GIT_USERNAME` and `GROUNDWORK_GIT_PASSWORD`; for SSH
 * the files `GROUNDWORK_GIT_SSH_KEY_FILE` and `GROUNDWORK_GIT_KNOWN_HOSTS_FILE` (read now, see
 * `sshCredentialsFromEnv`). Empty variables count as unset. Returns undefined when none are set
 * (anonymous access); throws `InvalidCredentials` for a username without a password or an
 * unreadable key file.
 *
 * @example
 * credentialsFromEnv({ GROUNDWORK_GIT_TOKEN: 'ghp_…' }) // { token: 'ghp_…' }
 */
export function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): GitAuth | undefined {
  const http = fromFields('environment', {
    token: env.GROUNDWORK_GIT_TOKEN,
    username: env.GROUNDWORK_GIT_USERNAME,
    password: env.GROUNDWORK_GIT_PASSWORD,
  });
  const ssh = sshCredentialsFromEnv(env);
  return ssh ? { ...http, ssh } : http;
}

/**
 * Decodes the `data` of a Kubernetes Secret, laid out like Flux's git Secrets: `token` (with an
 * optional `username`), or `username` and `password`, each base64-encoded; or for SSH `identity`
 * (the deploy key) with `known_hosts` and, for an encrypted key, its passphrase as `password`
 * (then not a Basic password). One trailing newline is dropped from each HTTP value (`echo
 * "$TOKEN" | base64` adds one). Other keys (`identity.pub`, `ca.crt`, …) are ignored. Throws
 * `InvalidCredentials` for a value that is not base64 or an incomplete pair; returns undefined
 * for a Secret with none of the keys.
 */
export function credentialsFromSecretData(data: Readonly<Record<string, string>>): GitAuth | undefined {
  const decode = (key: string): string | undefined => {
    const raw = data[key];
    if (raw === undefined) return undefined;
    const compact = raw.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
      throw new InvalidCredentialsError('Secret', `data.${key} is not base64`);
    return Buffer.from(compact, 'base64')
      .toString('utf8')
      .replace(/\r?\n$/, '');
  };
  const ssh = sshCredentialsFromSecret(data, decode);
  if (ssh) return { ...(decode('token') ? { token: decode('token')! } : {}), ssh };
  return fromFields('Secret', {
    token: decode('token'),
    username: decode('username'),
    password: decode('password'),
  });
}

function fromFields(
  source: string,
  f: { token: string | undefined; username: string | undefined; password: string | undefined },
): GitAuth | undefined {
  const token = f.token || undefined;
  const username = f.username || undefined;
  const password = f.password || undefined;
  if (token) return username ? { username, token } : { token };
  if (username && password) return { username, password };
  if (username) throw new InvalidCredentialsError(source, 'a username without a password or token');
  if (password) throw new InvalidCredentialsError(source, 'a password without a username');
  return undefined;
}

/**
 * The user name and password sent with HTTP Basic auth: a token goes as the password with
 * `username` or `TOKEN_USERNAME`. Undefined for anonymous access.
 */
export function basicCredentials(
  auth: GitAuth | undefined,
): { username: string; password: string } | undefined {
  if (auth?.token) return { username: auth.username || TOKEN_USERNAME, password: auth.token };
  if (auth?.username && auth.password) return { username: auth.username, password: auth.password };
  return undefined;
}

/** The `Authorization` header value for `auth` (`Basic …`), or undefined for anonymous access. */
export function authorizationHeader(auth: GitAuth | undefined): string | undefined {
  const basic = basicCredentials(auth);
  return basic && `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
}

const MASK = '***';

/**
 * Removes credentials from text meant for logs, errors and reports: every occurrence of the token
 * or password (as is, URL-encoded, base64-encoded and inside the Basic header value), the
 * userinfo of any URL (`https://user:pass@host/` becomes `https://host/`), and the value of any
 * `Authorization:` header, an SSH key's passphrase, and any PEM or OpenSSH private key block. The
 * user name alone is not a secret and stays, except inside URLs. Works without `auth` too (only
 * the URL, header and key block rules apply).
 *
 * @example
 * redact('GET https://bot:hunter2@git.example/x failed: hunter2', { username: 'bot', password: 'hunter2' })
 * // 'GET https://git.example/x failed: ***'
 */
export function redact(text: string, auth?: GitAuth): string {
  let out = text
    .replace(/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, MASK)
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1')
    .replace(/(authorization["']?\s*[:=]\s*["']?)(basic|bearer|token)\s+[^\s"',}]+/gi, `$1$2 ${MASK}`);
  for (const secret of secretForms(auth)) out = out.split(secret).join(MASK);
  return out;
}

/** Every spelling of the secret values that could show up in a message, longest first. */
function secretForms(auth: GitAuth | undefined): string[] {
  const forms = new Set<string>();
  const basic = basicCredentials(auth);
  if (basic) forms.add(Buffer.from(`${basic.username}:${basic.password}`).toString('base64'));
  for (const secret of [auth?.token, auth?.password, auth?.ssh?.passphrase]) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(Buffer.from(secret).toString('base64'));
  }
  return [...forms].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}
