import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** One host key pinned for a host: its type (`ssh-ed25519`) and its public key blob (SSH wire format). */
export interface PinnedKey {
  readonly type: string;
  readonly blob: Buffer;
}

/** What known_hosts says about one host: the keys it may present, and keys it must never present. */
export interface HostKeys {
  readonly pinned: readonly PinnedKey[];
  readonly revoked: readonly PinnedKey[];
  /** Lines for the host that are certificate authorities (`@cert-authority`): not supported, counted to say so. */
  readonly certAuthorities: number;
}

/** At most this much known_hosts text is read (GitHub's three keys take about 800 bytes). */
export const MAX_KNOWN_HOSTS_BYTES = 1024 * 1024;

/**
 * The keys known_hosts text (OpenSSH's `sshd(8)` "SSH_KNOWN_HOSTS FILE FORMAT") pins for `name`
 * (`knownHostsName`: `host`, or `[host]:port` off port 22). Reads plain host patterns (comma
 * separated, `*` and `?` wildcards, `!` negation) and hashed names (`|1|salt|hash`,
 * `HashKnownHosts`), `@revoked` lines, and counts `@cert-authority` lines (host certificates are
 * not supported). Lines that do not parse, comments and blank lines are skipped; text past
 * `MAX_KNOWN_HOSTS_BYTES` is not read. Pure.
 *
 * @example
 * hostKeys('github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n', 'github.com')
 * // { pinned: [{ type: 'ssh-ed25519', blob: <Buffer …> }], revoked: [], certAuthorities: 0 }
 */
export function hostKeys(text: string, name: string): HostKeys {
  const pinned: PinnedKey[] = [];
  const revoked: PinnedKey[] = [];
  let certAuthorities = 0;
  for (const raw of text.slice(0, MAX_KNOWN_HOSTS_BYTES).split('\n')) {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) continue;
    const marker = fields[0].startsWith('@') ? fields.shift() : undefined;
    const [hosts, type, base64] = fields;
    if (!hosts || !type || !base64 || !matchesHost(hosts, name)) continue;
    if (marker === '@cert-authority') {
      certAuthorities++;
      continue;
    }
    const blob = keyBlob(type, base64);
    if (!blob) continue;
    if (marker === '@revoked') revoked.push({ type, blob });
    else if (marker === undefined) pinned.push({ type, blob });
  }
  return { pinned, revoked, certAuthorities };
}

/** The key blob when `base64` decodes to an SSH key of `type` (its first field names the type), else undefined. */
function keyBlob(type: string, base64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const blob = Buffer.from(base64, 'base64');
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  return blob.length >= 4 + length && blob.subarray(4, 4 + length).toString('latin1') === type
    ? blob
    : undefined;
}

/** Whether a known_hosts host field matches `name`: a hashed name, or patterns where a negated match wins. */
function matchesHost(field: string, name: string): boolean {
  if (field.startsWith('|1|')) return hashedMatch(field, name);
  let matched = false;
  for (const pattern of field.split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatch(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

/** `|1|<base64 salt>|<base64 HMAC-SHA1(salt, name)>`, compared in constant time. */
function hashedMatch(field: string, name: string): boolean {
  const [, , salt, hash] = field.split('|');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** OpenSSH's `match_pattern`: `*` any run, `?` one character, host names compared without case. */
function globMatch(pattern: string, name: string): boolean {
  if (pattern.length > 1024) return false;
  const source = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 'i').test(name);
}

/** A key's fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the unpadded base64 of the blob's SHA-256. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The type a key blob names in its first field (`ssh-ed25519`), or `unknown`. */
export function blobType(blob: Buffer): string {
  if (blob.length < 4) return 'unknown';
  const length = blob.readUInt32BE(0);
  return length > 0 && length < 64 && blob.length >= 4 + length
    ? blob.subarray(4, 4 + length).toString('latin1')
    : 'unknown';
}

/**
 * The host key algorithms to offer for pinned keys of these types, strongest first and only
 * modern ones: an RSA key (`ssh-rsa`) is offered with SHA-2 signatures only (RFC 8332), never
 * SHA-1; DSA and security-key (`sk-`) host keys are not offered. Offering only what is pinned is
 * what OpenSSH does for a known host: the server then presents the key known_hosts pins.
 */
export function hostKeyAlgorithms(types: readonly string[]): string[] {
  const order = [
    'ssh-ed25519',
    'ecdsa-sha2-nistp256',
    'ecdsa-sha2-nistp384',
    'ecdsa-sha2-nistp521',
    'rsa-sha2-512',
    'rsa-sha2-256',
  ];
  const wanted = new Set(types.flatMap((t) => (t === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256'] : [t])));
  return order.filter((a) => wanted.has(a));
}
