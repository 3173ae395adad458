import type { HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { authorizationHeader, type GitAuth } from './credentials.js';
import { scrubUrl } from './fetch-error.js';
import { parseRepoUrl } from './repo-url.js';
import { SSH_REMOTE_URL, sshTransport, type SshLimits } from './ssh/ssh-http.js';

/** A git remote as isomorphic-git talks to it, whatever the URL's transport. */
export interface Remote {
  /** For messages and the cache's `remote.origin.url`: HTTP without userinfo, SSH as given. */
  readonly url: string;
  readonly auth: GitAuth | undefined;
  /** What isomorphic-git is given as the URL. */
  readonly fetchUrl: string;
  readonly http: HttpClient;
  /**
   * Headers for every request (the Basic `Authorization` of HTTP credentials). Hand isomorphic-git
   * a copy: it writes into the object it gets (`Git-Protocol`, content types).
   */
  readonly headers: Record<string, string>;
  /** Ends what the remote holds open (an SSH connection). */
  close(): void;
}

/**
 * The remote of a clone URL (checked by `parseRepoUrl`: `UnsupportedRepoUrl` otherwise): over
 * HTTP(S) with `http` (userinfo in the URL used as credentials when `auth` has none, see
 * `scrubUrl`), over SSH (`ssh://`, scp-like) with the SSH transport and `auth.ssh`, bounded by
 * `ssh`, fetch only unless `push` (promotions). Opens nothing until the first request.
 */
export function openRemote(
  url: string,
  auth: GitAuth | undefined,
  opts: { http?: HttpClient; ssh?: Partial<SshLimits>; push?: boolean } = {},
): Remote {
  const parsed = parseRepoUrl(url);
  if (parsed.kind === 'ssh') {
    const transport = sshTransport(parsed, auth?.ssh, opts.ssh, { push: opts.push === true });
    return {
      url: parsed.url,
      auth,
      fetchUrl: SSH_REMOTE_URL,
      http: transport.http,
      headers: {},
      close: () => transport.close(),
    };
  }
  const scrubbed = scrubUrl(url, auth);
  const header = authorizationHeader(scrubbed.auth);
  return {
    url: scrubbed.url,
    auth: scrubbed.auth,
    fetchUrl: scrubbed.url,
    http: opts.http ?? nodeHttp,
    headers: header ? { Authorization: header } : {},
    close: () => {},
  };
}
