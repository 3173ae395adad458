// The one check of a URL Groundwork takes from repository content or configuration before it
// connects: its shape, then every address its host resolves to.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './address-class.js';
import { GroundworkError } from './errors.js';

/** One resolved address of a host. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all its addresses (tests inject one; the default is the system's). */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** Where an outbound connection may go. */
export interface OutboundPolicy {
  /** `http:`/`https:` (`oci:` is turned into `https:` by its client first). @default both */
  readonly schemes?: readonly ('http:' | 'https:')[];
  /** Loopback, for tests and local development only. @default `GROUNDWORK_ALLOW_LOOPBACK_URLS=1` */
  readonly allowLoopback?: boolean;
  /** RFC 1918, CGNAT and ULA addresses (in-cluster receivers, internal repositories). @default true */
  readonly allowPrivate?: boolean;
  /** @default the system resolver, every address (`dns.lookup` with `all`) */
  readonly resolve?: Resolver;
}

/**
 * The policy of this process: loopback only with `GROUNDWORK_ALLOW_LOOPBACK_URLS=1` (the test
 * suite and a developer's local registry set it; an agent in a cluster never needs it).
 */
export function outboundPolicy(over: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowLoopback: process.env.GROUNDWORK_ALLOW_LOOPBACK_URLS === '1', ...over };
}

/** Why an address may not be connected to under `policy`, or undefined. Pure. */
export function addressProblem(address: string, policy: OutboundPolicy): string | undefined {
  const cls: AddressClass = classifyAddress(address);
  if (cls === 'public') return undefined;
  if (cls === 'private' && policy.allowPrivate !== false) return undefined;
  if (cls === 'loopback' && policy.allowLoopback) return undefined;
  const why: Record<AddressClass, string> = {
    public: '',
    private: 'a private address',
    loopback: 'a loopback address (this machine)',
    'link-local': 'a link-local address (cloud instance metadata lives there)',
    metadata: 'a cloud metadata address (instance credentials live there)',
    unspecified: 'the unspecified address',
    multicast: 'a multicast address',
    reserved: 'a reserved address',
    invalid: 'no address',
  };
  return why[cls];
}

/**
 * Why `url` may not be fetched by its shape, or undefined: not a URL, a scheme outside the
 * policy's, a user name or password in it, or a host that is an IP literal `addressProblem`
 * refuses (IPv4-mapped and other IPv6 forms of an IPv4 address included). Does not resolve
 * names: `checkedAddress` does, at connection time. The message never quotes the URL (it may
 * hold a token); at most its host. Pure.
 */
export function urlProblem(url: string | URL, policy: OutboundPolicy = outboundPolicy()): string | undefined {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return 'is not a URL';
  }
  const schemes = policy.schemes ?? ['http:', 'https:'];
  if (!(schemes as readonly string[]).includes(parsed.protocol))
    return `uses the ${parsed.protocol.replace(/:$/, '')}: scheme: use ${schemes.map((s) => `${s}//`).join(' or ')}`;
  if (parsed.username !== '' || parsed.password !== '') return 'must not hold a user name or password';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return 'has no host';
  if (isIP(host) !== 0) {
    const problem = addressProblem(host, policy);
    if (problem) return `names ${problem}`;
  }
  return undefined;
}

/**
 * The address to connect to for `url`: its IP literal, or every address its host resolves to
 * checked by `addressProblem` (one refused address refuses the host: a name that answers both a
 * public and a metadata address is not used), then the first. The caller connects to exactly
 * this address (no second resolution). Throws `UrlNotAllowed` naming the host, never the URL.
 */
export async function checkedAddress(
  url: URL,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<ResolvedAddress> {
  const refuse = (message: string) =>
    new GroundworkError({
      code: 'UrlNotAllowed',
      subject: `host ${parsedHost(url)}`,
      message,
      fix: "use the receiver's or repository's own address (Groundwork does not connect to loopback, link-local or metadata addresses)",
    });
  const shape = urlProblem(url, policy);
  if (shape) throw refuse(`the URL ${shape}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family !== 0) return { address: host, family: family as 4 | 6 };
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(host);
  } catch (err) {
    throw refuse(`does not resolve (${(err as NodeJS.ErrnoException).code ?? 'no answer'})`);
  }
  if (addresses.length === 0) throw refuse('resolves to no address');
  for (const a of addresses) {
    const problem = addressProblem(a.address, policy);
    if (problem) throw refuse(`resolves to ${problem}`);
  }
  return addresses[0]!;
}

function parsedHost(url: URL): string {
  return url.host.slice(0, 253);
}

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));
