// What kind of address an IP is, for deciding whether Groundwork may connect to it: pure.
import ipaddr from 'ipaddr.js';

/**
 * The class of an address. `public` and `private` (RFC 1918, CGNAT `100.64.0.0/10`, ULA
 * `fc00::/7`) are where receivers and chart repositories live; the rest are never a receiver:
 * `loopback` (this machine), `link-local` (`169.254.0.0/16`, `fe80::/10`: where cloud instance
 * metadata lives), `metadata` (the cloud metadata services' own addresses, in whatever range),
 * `unspecified`, `multicast`, `reserved`, and `invalid` for text that is no address.
 */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

/**
 * Cloud metadata services by address: AWS and GCP and Azure (`169.254.169.254`), AWS ECS
 * (`169.254.170.2`), AWS IPv6 (`fd00:ec2::254`), Alibaba (`100.100.100.200`), Oracle
 * (`192.0.0.192`). Some sit in ranges otherwise allowed (CGNAT, ULA), so they are named here.
 */
const METADATA = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
]);

const V4: Record<string, AddressClass> = {
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'private',
  private: 'private',
  reserved: 'reserved',
};

const V6: Record<string, AddressClass> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
  discard: 'reserved',
  reserved: 'reserved',
};

/**
 * The class of `address` (an IPv4 or IPv6 literal, brackets allowed). An IPv6 address that
 * carries an IPv4 one is classed by the IPv4 it reaches: IPv4-mapped `::ffff:a.b.c.d`, SIIT
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`,
 * 6to4 `2002::/16`, and Teredo `2001::/32` (its server and its client, the worse of the two);
 * site-local `fec0::/10` is `reserved`. Pure.
 */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (!ipaddr.isValid(text)) return 'invalid';
  const ip = ipaddr.parse(text);
  if (METADATA.has(ip.toString()) || METADATA.has(ip.toNormalizedString())) return 'metadata';
  if (ip.kind() === 'ipv4') return V4[ip.range()] ?? 'public';
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded.length > 0) return worst(embedded.map((v4) => classifyAddress(v4)));
  if ((v6.parts[0]! & 0xffc0) === 0xfec0) return 'reserved';
  return V6[v6.range()] ?? 'public';
}

/** The IPv4 addresses an IPv6 address carries (see `classifyAddress`), none for a plain one. */
function embeddedIPv4(ip: ipaddr.IPv6): string[] {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && p[5] === 0xffff) return [v4(p[6]!, p[7]!)]; // ::ffff:a.b.c.d
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p[6]!, p[7]!)]; // ::ffff:0:a.b.c.d
  if (zero(0, 6) && (p[6] !== 0 || p[7]! > 1)) return [v4(p[6]!, p[7]!)]; // ::a.b.c.d
  if (p[0] === 0x64 && p[1] === 0xff9b) return [v4(p[6]!, p[7]!)]; // NAT64, well-known and local
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)]; // 6to4
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)]; // Teredo
  return [];
}

const ORDER: readonly AddressClass[] = [
  'invalid',
  'metadata',
  'link-local',
  'loopback',
  'unspecified',
  'multicast',
  'reserved',
  'private',
  'public',
];

function worst(classes: readonly AddressClass[]): AddressClass {
  return [...classes].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0] ?? 'invalid';
}
