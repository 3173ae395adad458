import type * as openpgp from 'openpgp';
import { SshFormatError } from './ssh-wire.js';
import { parseSshSignature, verifySshSignature } from './sshsig.js';
import type { SignatureFormat, SignedObject } from './signed-object.js';
import type { TrustedKeys } from './trusted-keys.js';

/** Why a signature is not accepted; closed vocabulary (shown in the status and Events). */
export type VerificationProblem =
  | 'Unsigned'
  | 'UnknownKey'
  | 'BadSignature'
  | 'ExpiredKey'
  | 'RevokedKey'
  | 'Malformed'
  | 'UnsupportedFormat'
  | 'NoTrustedKeys';

/** The outcome of checking one commit's or tag's signature against the trusted keys. */
export type SignatureVerdict =
  | {
      readonly verified: true;
      readonly format: 'openpgp' | 'ssh';
      /** OpenPGP: the signing (sub)key's fingerprint; SSH: `SHA256:…` of the key. */
      readonly keyId: string;
      /** OpenPGP: the key's primary user id; SSH: the principals of its allowed signers line. */
      readonly signer: string;
    }
  | {
      readonly verified: false;
      readonly problem: VerificationProblem;
      readonly format?: SignatureFormat;
      readonly keyId?: string;
      readonly signer?: string;
      /** One short sentence, never the signature's or key's text. */
      readonly detail: string;
    };

/** The namespace git signs commits and tags in (`ssh-keygen -Y sign -n git`). */
const GIT_NAMESPACE = 'git';

/** A name from a key (a user id, a principal), safe to print: printable, at most 128 characters. */
export function printable(text: string): string {
  const clean = text
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?')
    .replace(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
  return clean.length > 128 ? `${clean.slice(0, 128)}…` : clean;
}

/**
 * Checks a signed object's signature against `keys` at `now`. The key must be valid now (not
 * expired, not revoked, inside its allowed signers validity) — not at the signature's own time,
 * which the signer chooses. Pure but for the cryptography: no I/O, no clock.
 */
export async function verifySignature(
  obj: SignedObject,
  keys: TrustedKeys | undefined,
  now: Date,
): Promise<SignatureVerdict> {
  if (!obj.signature || !obj.format) return { verified: false, problem: 'Unsigned', detail: 'not signed' };
  if (!keys)
    return {
      verified: false,
      problem: 'NoTrustedKeys',
      format: obj.format,
      detail: 'no trusted keys are configured',
    };
  const payload = Buffer.from(obj.payload, 'latin1');
  if (obj.format === 'ssh') return verifySsh(obj.signature, payload, keys, now);
  if (obj.format === 'openpgp') return verifyPgp(obj.signature, payload, keys, now);
  return {
    verified: false,
    problem: 'UnsupportedFormat',
    format: obj.format,
    detail:
      obj.format === 'x509'
        ? 'an X.509 (gpgsm) signature: only OpenPGP and SSH signatures are verified'
        : 'an unrecognised or repeated signature',
  };
}

function verifySsh(armored: string, payload: Buffer, keys: TrustedKeys, now: Date): SignatureVerdict {
  let sig;
  try {
    sig = parseSshSignature(armored);
  } catch (err) {
    const why = err instanceof SshFormatError ? err.message : 'unreadable';
    return {
      verified: false,
      problem: why === 'unsupported key type' ? 'UnsupportedFormat' : 'Malformed',
      format: 'ssh',
      detail: `SSH signature: ${why}`,
    };
  }
  const keyId = sig.publicKey.fingerprint;
  const known = keys.ssh.filter((s) => s.key.blob.equals(sig.publicKey.blob));
  if (known.length === 0)
    return {
      verified: false,
      problem: 'UnknownKey',
      format: 'ssh',
      keyId,
      detail: `signed by ${sig.publicKey.type} key ${keyId}, which is not in ${keys.source}`,
    };
  const forGit = known.filter((s) => !s.namespaces || s.namespaces.includes(GIT_NAMESPACE));
  const signer = printable([...new Set(known.flatMap((s) => s.principals))].join(','));
  if (forGit.length === 0)
    return {
      verified: false,
      problem: 'UnknownKey',
      format: 'ssh',
      keyId,
      signer,
      detail: 'the key is trusted only for other namespaces than git',
    };
  const valid = forGit.filter(
    (s) => (!s.validAfter || s.validAfter <= now) && (!s.validBefore || now < s.validBefore),
  );
  if (valid.length === 0)
    return {
      verified: false,
      problem: 'ExpiredKey',
      format: 'ssh',
      keyId,
      signer,
      detail: 'the key is outside its valid-after/valid-before window',
    };
  if (!verifySshSignature(sig, payload, GIT_NAMESPACE))
    return {
      verified: false,
      problem: 'BadSignature',
      format: 'ssh',
      keyId,
      signer,
      detail: 'the signature does not match the content, or was not made for git',
    };
  return {
    verified: true,
    format: 'ssh',
    keyId,
    signer: printable(valid.flatMap((s) => s.principals).join(',')),
  };
}

async function verifyPgp(
  armored: string,
  payload: Buffer,
  keys: TrustedKeys,
  now: Date,
): Promise<SignatureVerdict> {
  // Loaded on the first OpenPGP signature, not with the module (2 MB of heap an agent that verifies
  // nothing, or only SSH signatures, would hold for its whole life).
  const lib = await import('openpgp');
  let signature: openpgp.Signature;
  try {
    if (armored.length > 64 * 1024) throw new Error('too large');
    signature = await lib.readSignature({ armoredSignature: armored });
  } catch {
    return {
      verified: false,
      problem: 'Malformed',
      format: 'openpgp',
      detail: 'OpenPGP signature: unreadable',
    };
  }
  const ids = signature.getSigningKeyIDs();
  const keyId = ids[0]?.toHex().toUpperCase();
  const key = keys.openpgp.find((k) => ids.some((id) => k.getKeys(id).length > 0));
  if (!key || !keyId)
    return {
      verified: false,
      problem: 'UnknownKey',
      format: 'openpgp',
      ...(keyId ? { keyId } : {}),
      detail: `signed by key ${keyId ?? '(no issuer)'}, which is not in ${keys.source}`,
    };
  const id = ids.find((i) => key.getKeys(i).length > 0)!;
  const signingKey = key.getKeys(id)[0]!;
  const fingerprint = signingKey.getFingerprint().toUpperCase();
  const signer = printable(key.getUserIDs()[0] ?? key.getFingerprint().toUpperCase());
  const at = { format: 'openpgp' as const, keyId: fingerprint, signer };
  // The key must be valid now; the signature's own time is the signer's choice, and a clock ahead
  // of ours is no reason to refuse, so the checks run at the later of the two. Expiry and
  // revocation lie in the past of both.
  const created = signature.packets[0]?.created?.getTime() ?? 0;
  const date = new Date(Math.max(now.getTime(), created));
  if (await key.isRevoked(undefined, undefined, date).catch(() => true))
    return { verified: false, problem: 'RevokedKey', ...at, detail: 'the key is revoked' };
  try {
    await key.getSigningKey(id, date);
  } catch (err) {
    const why = err instanceof Error ? err.message : '';
    if (/revoked/i.test(why))
      return { verified: false, problem: 'RevokedKey', ...at, detail: 'the signing key is revoked' };
    if (/expired/i.test(why))
      return { verified: false, problem: 'ExpiredKey', ...at, detail: 'the key has expired' };
    return {
      verified: false,
      problem: 'BadSignature',
      ...at,
      detail: 'the key may not sign (no valid signing key)',
    };
  }
  try {
    const message = await lib.createMessage({ binary: new Uint8Array(payload) });
    const result = await lib.verify({
      message,
      signature,
      verificationKeys: [key],
      date,
      format: 'binary',
    });
    await result.signatures[0]!.verified;
  } catch {
    return {
      verified: false,
      problem: 'BadSignature',
      ...at,
      detail: 'the signature does not match the content',
    };
  }
  return { verified: true, ...at };
}
