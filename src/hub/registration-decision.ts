import type { RefusalReason, RegistrationSpec } from './registration-schema.js';
import { registrationName, tokenMatches } from './registration-token.js';
import type { TokenRecord } from './token-store.js';

/** What the controller does with a registration: set the member up, or refuse and say why. */
export type RegistrationDecision =
  | { readonly accept: true; readonly member: string; readonly resumed?: boolean }
  | { readonly accept: false; readonly reason: RefusalReason; readonly message: string };

/**
 * Decides a registration from its name and spec and the record of the token it presents (undefined:
 * no such token). In order: the name must be the one derived from the token (`NameMismatch`), the
 * token must exist and its hash match (`TokenUnknown`: the same answer for both, so a guess learns
 * nothing), be unexpired (`TokenExpired`) and unused (`TokenUsed`), and be for the member named
 * (`MemberMismatch`). A token spent by this very registration for this very key is the controller
 * resuming after it stopped between spending the token and answering: accepted again (`resumed`),
 * since the answer opens only with the key the token was spent for; the same token presented with
 * another key (a replay once the first registration was cleaned up) is `TokenUsed`. Pure: the
 * clock is `now`.
 */
export function decideRegistration(input: {
  readonly name: string;
  readonly spec: RegistrationSpec;
  readonly record: TokenRecord | undefined;
  readonly now: Date;
}): RegistrationDecision {
  const { name, spec, record, now } = input;
  if (name !== registrationName(spec.token))
    return {
      accept: false,
      reason: 'NameMismatch',
      message: 'the registration is not named after its token',
    };
  if (!record || !tokenMatches(spec.token, record.hash))
    return { accept: false, reason: 'TokenUnknown', message: 'no such registration token' };
  if (Date.parse(record.expiresAt) <= now.getTime())
    return {
      accept: false,
      reason: 'TokenExpired',
      message: `the registration token expired at ${record.expiresAt}`,
    };
  if (
    record.used &&
    record.usedBy === name &&
    record.usedRecipient === spec.recipient &&
    record.member === spec.member
  )
    return { accept: true, member: record.member, resumed: true };
  if (record.used)
    return {
      accept: false,
      reason: 'TokenUsed',
      message: 'the registration token was used already: a token works once',
    };
  if (record.member !== spec.member)
    return {
      accept: false,
      reason: 'MemberMismatch',
      message: `the registration token is for member ${record.member}, not ${spec.member}`,
    };
  return { accept: true, member: record.member };
}
