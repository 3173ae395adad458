import { Decrypter, Encrypter, armor, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { GroundworkError } from '../core/errors.js';
import { memberCredentialsSchema, type MemberCredentials } from './registration-schema.js';

// The member's credentials travel through the MemberRegistration's status encrypted with age
// (X25519) to the key the agent generated for this registration: whoever else reads the
// registration (another holder of a bootstrap kubeconfig, an audit log, a backup) sees ciphertext.

/** A key pair for one registration: the identity stays with the agent, the recipient goes to the hub. */
export interface RegistrationKey {
  /** `AGE-SECRET-KEY-1…`: kept in the agent's own credentials Secret until the answer is read. */
  readonly identity: string;
  /** `age1…`: sent in the registration. */
  readonly recipient: string;
}

/** A fresh X25519 key pair. */
export async function newRegistrationKey(): Promise<RegistrationKey> {
  const identity = await generateX25519Identity();
  return { identity, recipient: await identityToRecipient(identity) };
}

/** The recipient (public key) of an identity this agent kept. */
export function recipientOf(identity: string): Promise<string> {
  return identityToRecipient(identity);
}

/** `credentials` as armored age ciphertext to `recipient`. */
export async function sealCredentials(credentials: MemberCredentials, recipient: string): Promise<string> {
  const e = new Encrypter();
  e.addRecipient(recipient);
  return armor.encode(await e.encrypt(JSON.stringify(credentials)));
}

/**
 * The credentials in `sealed`, opened with `identity` and checked against their schema. Throws
 * `HubRegistrationFailed` when they do not open (not for this key) or do not parse; never quotes them.
 */
export async function openCredentials(sealed: string, identity: string): Promise<MemberCredentials> {
  let text: string;
  try {
    const d = new Decrypter();
    d.addIdentity(identity);
    text = await d.decrypt(armor.decode(sealed), 'text');
  } catch {
    throw new GroundworkError({
      code: 'HubRegistrationFailed',
      subject: 'MemberRegistration status.credentials',
      message: 'the credentials do not open with the key this agent registered with',
      fix: 'register again with a new token: groundwork hub token create --member <name>',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = memberCredentialsSchema.safeParse(value);
  if (!parsed.success)
    throw new GroundworkError({
      code: 'HubRegistrationFailed',
      subject: 'MemberRegistration status.credentials',
      message: 'the credentials are not in the expected form',
      fix: 'check that the hub and the agent run compatible versions of Groundwork',
    });
  return parsed.data;
}
