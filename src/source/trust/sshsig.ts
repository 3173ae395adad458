import { createHash, verify } from 'node:crypto';
import {
  SshFormatError,
  SshReader,
  ecdsaSize,
  parseSshPublicKey,
  sshString,
  type SshPublicKey,
} from './ssh-wire.js';

// SSH signatures as `ssh-keygen -Y sign` writes them and git stores them (gpg.format=ssh), from
// openssh's PROTOCOL.sshsig: an armored blob holding the signer's public key, a namespace (git
// signs in "git"), the hash of the message and a signature over a preamble, the namespace and that
// hash, so a signature made for one purpose (a file, an email) is no signature for another.

const MAGIC = Buffer.from('SSHSIG');
const ARMOR_BEGIN = '-----BEGIN SSH SIGNATURE-----';
const ARMOR_END = '-----END SSH SIGNATURE-----';
/** Larger than any real SSHSIG (an RSA-16384 one is about 4 KiB of base64). */
const MAX_ARMOR_CHARS = 64 * 1024;

/** An SSHSIG blob, parsed (nothing verified yet). */
export interface SshSignature {
  readonly publicKey: SshPublicKey;
  readonly namespace: string;
  readonly hashAlgorithm: 'sha256' | 'sha512';
  /** The inner signature's algorithm (`ssh-ed25519`, `rsa-sha2-512`, `ecdsa-sha2-nistp256`, …). */
  readonly algorithm: string;
  readonly signature: Buffer;
}

/**
 * Parses an armored SSH signature. Throws `SshFormatError` with a short reason (never the input)
 * for bad armor, base64, magic, version, an unsupported key or hash, or trailing bytes.
 */
export function parseSshSignature(armored: string): SshSignature {
  if (armored.length > MAX_ARMOR_CHARS) throw new SshFormatError('signature too large');
  const text = armored.trim();
  if (!text.startsWith(ARMOR_BEGIN) || !text.endsWith(ARMOR_END)) throw new SshFormatError('bad armor');
  const body = text.slice(ARMOR_BEGIN.length, -ARMOR_END.length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new SshFormatError('bad base64');
  const r = new SshReader(Buffer.from(body, 'base64'));
  if (!r.bytes(6).equals(MAGIC)) throw new SshFormatError('not an SSHSIG blob');
  if (r.uint32() !== 1) throw new SshFormatError('unsupported SSHSIG version');
  const publicKey = parseSshPublicKey(r.string());
  const namespace = r.text();
  r.string(); // reserved
  const hashAlgorithm = r.text();
  if (hashAlgorithm !== 'sha256' && hashAlgorithm !== 'sha512')
    throw new SshFormatError('unsupported hash algorithm');
  const inner = new SshReader(r.string());
  if (!r.done) throw new SshFormatError('trailing bytes after the signature');
  const algorithm = inner.text();
  const signature = inner.string();
  return { publicKey, namespace, hashAlgorithm, algorithm, signature };
}

/** The bytes an SSHSIG signs: the preamble, namespace, reserved, hash algorithm and H(message). */
function signedData(sig: SshSignature, message: string | Buffer): Buffer {
  const digest = createHash(sig.hashAlgorithm).update(message).digest();
  return Buffer.concat([
    MAGIC,
    sshString(sig.namespace),
    sshString(''),
    sshString(sig.hashAlgorithm),
    sshString(digest),
  ]);
}

/**
 * Whether `sig` is a valid signature over `message` by the key it carries, made for `namespace`.
 * Checks the inner algorithm against the key type (no SHA-1 `ssh-rsa` signatures, as OpenSSH).
 * Says nothing about whether the key is trusted: see `allowed-signers.ts`.
 */
export function verifySshSignature(sig: SshSignature, message: string | Buffer, namespace: string): boolean {
  if (sig.namespace !== namespace) return false;
  const data = signedData(sig, message);
  const { type, key } = sig.publicKey;
  try {
    if (type === 'ssh-ed25519')
      return sig.algorithm === 'ssh-ed25519' && verify(null, data, key, sig.signature);
    if (type === 'ssh-rsa') {
      const hash = { 'rsa-sha2-256': 'sha256', 'rsa-sha2-512': 'sha512' }[sig.algorithm];
      return hash !== undefined && verify(hash, data, key, sig.signature);
    }
    const ec = ecdsaSize(type);
    if (ec && sig.algorithm === type) {
      const rs = new SshReader(sig.signature);
      const [rr, ss] = [rs.string(), rs.string()];
      const fixed = (b: Buffer) => {
        const v = b.length > 1 && b[0] === 0 ? b.subarray(1) : b;
        if (v.length > ec.size) throw new SshFormatError('bad ECDSA signature');
        return Buffer.concat([Buffer.alloc(ec.size - v.length), v]);
      };
      return verify(ec.hash, data, { key, dsaEncoding: 'ieee-p1363' }, Buffer.concat([fixed(rr), fixed(ss)]));
    }
    return false;
  } catch {
    return false;
  }
}
