// The anonymous bearer-token challenge of OCI registries (the distribution token spec), decided
// purely: which challenge was sent, and whether its realm may be asked for a token.
import { hostOf, isLoopbackHost } from './oci-reference.js';

/** A `WWW-Authenticate` challenge: its scheme (lowercase) and parameters. */
export interface AuthChallenge {
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Reads the first challenge of a `WWW-Authenticate` header (`Bearer realm="...",service="...",
 * scope="..."`), quoted values with escapes and commas included. Undefined for an empty header.
 * Pure.
 */
export function parseChallenge(header: string | null | undefined): AuthChallenge | undefined {
  const m = /^\s*([A-Za-z][\w-]*)\s*(.*)$/s.exec(header ?? '');
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const param = /\s*([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s"]*))\s*(?:,|$)/gy;
  const text = m[2]!;
  let p: RegExpExecArray | null;
  while (param.lastIndex < text.length && (p = param.exec(text)))
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? '');
  return { scheme: m[1]!.toLowerCase(), params };
}

/**
 * Whether a token realm may be asked, for a registry at `registry` (`host[:port]`): an `https:`
 * URL (`http:` only when both are loopback, as plain http is), without credentials, on the
 * registry's own host or a host under the registry's parent domain when that has two labels or
 * more (`auth.docker.io` for `registry-1.docker.io`; `ghcr.io` only for itself). Any other realm is
 * refused: a registry named in a pull request must not send Groundwork to an address of its
 * choosing (the cloud metadata service, an in-cluster API). Returns the problem, or undefined. Pure.
 */
export function realmProblem(realm: string, registry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(realm);
  } catch {
    return 'its token realm is not a URL';
  }
  const registryHost = hostOf(registry).toLowerCase();
  const realmHost = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = isLoopbackHost(registryHost) && isLoopbackHost(realmHost);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    return `its token realm is not https (${url.protocol.replace(/:$/, '')}; plain http only on loopback)`;
  if (url.username || url.password) return 'its token realm holds credentials';
  if (realmHost === registryHost || loopback) return undefined;
  const parent = registryHost.split('.').slice(1);
  if (!/^[\d.]+$/.test(registryHost) && parent.length >= 2 && realmHost.endsWith(`.${parent.join('.')}`))
    return undefined;
  return `its token realm is on another host (${realmHost}), not ${registryHost} or a host of its domain`;
}

/**
 * The URL to ask for an anonymous pull token: the realm with the challenge's `service` and
 * `scope` (else `repository:<repository>:pull`, the only scope Groundwork needs). Pure.
 */
export function tokenUrl(challenge: AuthChallenge, repository: string): URL {
  const url = new URL(challenge.params.realm!);
  if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
  url.searchParams.set('scope', challenge.params.scope || `repository:${repository}:pull`);
  return url;
}
