import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { REGISTRATION_TOKEN } from './registration-schema.js';

// One-time registration tokens: `<id>.<secret>`. The id (6 characters) names the Secret that keeps
// the token's hash on the hub; the secret is 32 random bytes. The hub never stores the token itself.
// Names and hashes are domain-separated SHA-256 digests, so the registration's name (public to
// whoever holds the token) says nothing about the stored hash and the other way round.

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A registration token split into its parts. */
export interface RegistrationToken {
  readonly id: string;
  readonly token: string;
}

/** A new random token (`crypto.randomBytes`). */
export function newRegistrationToken(): RegistrationToken {
  const idBytes = randomBytes(6);
  const id = [...idBytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
  return { id, token: `${id}.${randomBytes(32).toString('base64url')}` };
}

/** The id part of a well-formed token, else undefined. Pure. */
export function tokenId(token: string): string | undefined {
  return REGISTRATION_TOKEN.test(token) ? token.slice(0, 6) : undefined;
}

const digest = (purpose: string, token: string) =>
  createHash('sha256').update(`groundwork-hub-${purpose}\0`).update(token).digest('hex');

/** What the hub keeps of a token (hex SHA-256, domain-separated). Pure. */
export function tokenHash(token: string): string {
  return digest('token', token);
}

/** Whether `token` hashes to `hash`, compared in constant time. Pure. */
export function tokenMatches(token: string, hash: string): boolean {
  const a = Buffer.from(tokenHash(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The name of the MemberRegistration that presents `token`: only a holder of the token knows it. Pure. */
export function registrationName(token: string): string {
  return `reg-${digest('registration-name', token).slice(0, 40)}`;
}

/** The Secret, in the hub's namespace, that keeps token `id`'s hash and what it grants. */
export function tokenSecretName(id: string): string {
  return `hub-token-${id}`;
}
