import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

/** Thrown by the readers below on malformed input; callers turn it into a verdict, never echo bytes. */
export class SshFormatError extends Error {}

/** Reads the SSH wire encoding (RFC 4251 §5): uint32 and length-prefixed strings, bounds-checked. */
export class SshReader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}

  bytes(n: number): Buffer {
    if (n < 0 || this.at + n > this.buf.length) throw new SshFormatError('truncated');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  uint32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  string(): Buffer {
    return this.bytes(this.uint32());
  }

  text(): string {
    return this.string().toString('latin1');
  }

  get done(): boolean {
    return this.at === this.buf.length;
  }
}

/** `string` in the SSH wire encoding. */
export function sshString(value: Buffer | string): Buffer {
  const body = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  return Buffer.concat([len, body]);
}

/** An SSH public key, parsed from its wire blob. */
export interface SshPublicKey {
  /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`, … */
  readonly type: string;
  /** `SHA256:<base64>` as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  readonly blob: Buffer;
  readonly key: KeyObject;
}

const CURVES: Record<string, { crv: string; size: number }> = {
  nistp256: { crv: 'P-256', size: 32 },
  nistp384: { crv: 'P-384', size: 48 },
  nistp521: { crv: 'P-521', size: 66 },
};

const b64url = (b: Buffer): string => b.toString('base64url');
/** An mpint without its sign byte. */
const unsigned = (b: Buffer): Buffer => (b.length > 1 && b[0] === 0 ? b.subarray(1) : b);

/** `SHA256:<base64 without padding>` of a key blob. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Parses a public key blob (ed25519, RSA, ECDSA P-256/384/521) into a Node `KeyObject`. Security-key
 * types (`sk-…@openssh.com`) and certificates are `SshFormatError('unsupported key type')`.
 */
export function parseSshPublicKey(blob: Buffer): SshPublicKey {
  const r = new SshReader(blob);
  const type = r.text();
  let jwk: Record<string, string>;
  if (type === 'ssh-ed25519') {
    const x = r.string();
    if (x.length !== 32) throw new SshFormatError('bad ed25519 key length');
    jwk = { kty: 'OKP', crv: 'Ed25519', x: b64url(x) };
  } else if (type === 'ssh-rsa') {
    const e = unsigned(r.string());
    const n = unsigned(r.string());
    if (n.length * 8 < 2040) throw new SshFormatError('RSA key shorter than 2048 bits');
    jwk = { kty: 'RSA', e: b64url(e), n: b64url(n) };
  } else if (type.startsWith('ecdsa-sha2-')) {
    const name = r.text();
    const curve = CURVES[name];
    const q = r.string();
    if (!curve || type !== `ecdsa-sha2-${name}`) throw new SshFormatError('unsupported ECDSA curve');
    if (q.length !== 1 + 2 * curve.size || q[0] !== 4) throw new SshFormatError('bad ECDSA point');
    jwk = {
      kty: 'EC',
      crv: curve.crv,
      x: b64url(q.subarray(1, 1 + curve.size)),
      y: b64url(q.subarray(1 + curve.size)),
    };
  } else {
    throw new SshFormatError('unsupported key type');
  }
  if (!r.done) throw new SshFormatError('trailing bytes after the key');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new SshFormatError('not a valid public key');
  }
  return { type, fingerprint: sshFingerprint(blob), blob, key };
}

/** The curve size of an ECDSA key type, for signatures' r and s. */
export function ecdsaSize(type: string): { size: number; hash: string } | undefined {
  const name = type.replace(/^ecdsa-sha2-/, '');
  const curve = CURVES[name];
  if (!curve) return undefined;
  return { size: curve.size, hash: { nistp256: 'sha256', nistp384: 'sha384', nistp521: 'sha512' }[name]! };
}
