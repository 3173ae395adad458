import { z } from 'zod';
import { HUB_API_VERSION, MEMBER_NAME } from './hub-names.js';
import { text, time } from './schema-parts.js';

// The MemberRegistration kind (`hub.groundwork.io/v1alpha1`), in the hub's namespace: an agent with
// a bootstrap kubeconfig creates one (its only right besides `get`), naming the member, presenting
// the one-time registration token and the public key it generated. The controller checks the token
// (hash, expiry, single use), sets the member up and answers in `status` with the member's
// credentials encrypted to that key. The object's name is derived from the token
// (`registrationName`): nobody without the token can name, read or pre-empt it, and a second
// registration with the same token is refused by the apiserver itself (AlreadyExists).

/** A registration token: `<id>.<secret>`, a 6-character id (names its Secret) and 32 random bytes. */
export const REGISTRATION_TOKEN = /^[a-z0-9]{6}\.[A-Za-z0-9_-]{43}$/;
/** An age X25519 recipient (`age1…`, bech32). */
export const AGE_RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/;

export const registrationSpecSchema = z.object({
  member: z
    .string()
    .max(40)
    .regex(MEMBER_NAME, 'must be a member name (a DNS label of at most 40 characters)'),
  token: z.string().max(64).regex(REGISTRATION_TOKEN, 'must be a registration token'),
  recipient: z
    .string()
    .max(64)
    .regex(AGE_RECIPIENT, 'must be an age X25519 recipient (age1…)')
    .describe("The agent's public key: the credentials are encrypted to it."),
  agentVersion: text(64).optional(),
});

/** Why a registration was refused: a closed vocabulary. */
export const REFUSAL_REASONS = [
  'TokenUnknown',
  'TokenExpired',
  'TokenUsed',
  'MemberMismatch',
  'NameMismatch',
  'Invalid',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export const registrationStatusSchema = z.object({
  phase: z.enum(['Accepted', 'Refused']),
  reason: z.enum(REFUSAL_REASONS).optional(),
  message: text(512).optional(),
  member: z.string().max(40).regex(MEMBER_NAME).optional(),
  namespace: text(63).optional(),
  /** age-encrypted (armored) `MemberCredentials` JSON, to `spec.recipient`. */
  credentials: text(8192).optional(),
  expiresAt: time.optional().describe('When the credentials expire (the agent renews them before).'),
  decidedAt: time,
});

export type RegistrationSpec = z.infer<typeof registrationSpecSchema>;
export type RegistrationStatus = z.infer<typeof registrationStatusSchema>;

export const memberRegistrationSchema = z.looseObject({
  apiVersion: z.literal(HUB_API_VERSION).optional(),
  kind: z.literal('MemberRegistration').optional(),
  metadata: z.looseObject({
    name: z.string(),
    namespace: z.string().optional(),
    resourceVersion: z.string().optional(),
    creationTimestamp: z.string().optional(),
  }),
  spec: registrationSpecSchema,
  status: registrationStatusSchema.optional(),
});
export type MemberRegistrationObject = z.infer<typeof memberRegistrationSchema>;

/** What the encrypted `status.credentials` hold: the member's hub token and where it acts. */
export const memberCredentialsSchema = z.strictObject({
  member: z.string().max(40).regex(MEMBER_NAME),
  namespace: text(63),
  token: text(4096),
  expiresAt: time,
});
export type MemberCredentials = z.infer<typeof memberCredentialsSchema>;
