import { GroundworkError } from '../core/errors.js';
import { scrubUrl } from './fetch-error.js';
import { MAX_REPO_URL_LENGTH, looksLikeSsh, parseSshUrl, type SshRepoUrl } from './ssh/ssh-url.js';

export type { SshRepoUrl } from './ssh/ssh-url.js';

/** A repository URL the source can fetch: smart HTTP(S), or SSH (`ssh://`, scp-like). */
export type RepoUrl = { readonly kind: 'http'; readonly url: string } | SshRepoUrl;

/** What the source fetches, for messages. */
const SUPPORTED = 'https://, http:// (git smart HTTP), ssh:// or scp-like user@host:path';

/**
 * Reads a repository URL before anything starts: a URL the source cannot fetch (`file://`, a local
 * path, `ext::`, another scheme) would otherwise fail every poll forever. HTTP(S) URLs must parse
 * as URLs; SSH URLs are read strictly by `parseSshUrl`. Throws `UnsupportedRepoUrl` naming the URL
 * (without credentials), what is wrong and what works; a local path or `file://` is told to
 * `groundwork git serve`. Pure.
 *
 * @example
 * parseRepoUrl('https://github.com/acme/platform.git') // { kind: 'http', url: … }
 * parseRepoUrl('git@github.com:acme/platform.git')     // { kind: 'ssh', user: 'git', host: 'github.com', port: 22, … }
 */
export function parseRepoUrl(url: string): RepoUrl {
  const shown = scrubUrl(url.length > 200 ? `${url.slice(0, 200)}…` : url, undefined).url;
  const refuse = (message: string, fix = `use one of ${SUPPORTED}`): never => {
    throw new GroundworkError({
      code: 'UnsupportedRepoUrl',
      subject: JSON.stringify(shown).slice(1, -1),
      message,
      fix,
    });
  };
  if (url.length > MAX_REPO_URL_LENGTH) refuse(`longer than ${MAX_REPO_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(url)) refuse('holds a space or a control character');
  if (url.startsWith('-')) refuse('starts with "-" (it could be read as an option)');
  if (looksLikeSsh(url)) return parseSshUrl(url);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'https' || scheme === 'http') {
    try {
      new URL(url);
      return { kind: 'http', url };
    } catch {
      refuse('not a valid URL', 'use https://<host>/<path>.git');
    }
  }
  const local = 'serve a local repository to the agent with `groundwork git serve <dir>` (it prints the URL)';
  if (scheme === 'file' || (!scheme && /^(\/|\.{1,2}(\/|$)|~)/.test(url)))
    refuse(
      scheme ? 'the file:// scheme is not supported' : 'a local path is not a repository URL',
      `${local}, or use one of ${SUPPORTED}`,
    );
  if (/^[a-z][a-z0-9+.-]*::/i.test(url)) refuse('a transport::address remote (such as ext::) is never run');
  return refuse(scheme ? `the ${scheme}:// scheme is not supported` : 'not a URL with a scheme');
}

/**
 * Checks a repository URL (`parseRepoUrl`) and returns nothing: for callers that only refuse.
 * Throws `UnsupportedRepoUrl`.
 */
export function checkRepoUrl(url: string): void {
  parseRepoUrl(url);
}

/** The host and TCP port a repository URL connects to (443/80 for HTTPS/HTTP, 22 for SSH, unless the URL names one). */
export function repoEndpoint(url: string): { host: string; port: number } {
  const parsed = parseRepoUrl(url);
  if (parsed.kind === 'ssh') return { host: parsed.host, port: parsed.port };
  const u = new URL(parsed.url);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443,
  };
}
