import { VerificationFailedError } from '../source/source-errors.js';
import { verificationRequired } from '../source/trust/verification-policy.js';
import type { GoodRevision } from './agent-state.js';
import type { Checkout } from './agent-ports.js';
import { parseRevision, shortCommit } from '../core/revision.js';

/** What the agent decides about a fetched checkout's signature before it synthesizes it. */
export interface TrustCheck {
  /** Why it may not be synthesized (a `VerificationFailed` message); undefined: it may. */
  readonly refusal?: string;
  /** Its groundwork.yaml asks for verification (kept with it once applied: see `verificationRequired`). */
  readonly verify: boolean;
}

/**
 * Applies the verification policy to a checkout: required by the agent (`--verify-commits`, in
 * which case `fetch` has already refused what failed), by the applied revision's groundwork.yaml,
 * or by the checkout's own (`requested`: its overlay's environment says `verify: true`). A
 * groundwork.yaml that cannot be read requests nothing (synth reports it), so the applied
 * revision's request and the agent's floor still hold. Pure.
 */
export function trustCheck(opts: {
  readonly checkout: Checkout;
  readonly lastGood: GoodRevision | undefined;
  readonly requested: boolean;
}): TrustCheck {
  const { checkout, requested: verify } = opts;
  const policy = verificationRequired({
    agent: checkout.verifyRequired ?? false,
    applied: opts.lastGood?.verify ?? false,
    candidate: verify,
  });
  if (!policy.required) return { verify };
  const signature = checkout.signature;
  if (signature?.verdict.verified) return { verify };
  const fetched = parseRevision(checkout.revision);
  const commit = fetched ? shortCommit(fetched.commit) : checkout.revision;
  const why =
    policy.by === 'applied'
      ? 'the applied revision’s groundwork.yaml requires verification'
      : 'this revision’s groundwork.yaml requires verification';
  const err = new VerificationFailedError(
    signature?.type === 'tag' ? `tag of ${commit}` : `commit ${commit}`,
    signature && !signature.verdict.verified
      ? signature.verdict
      : { verified: false, problem: 'NoTrustedKeys', detail: `${why}, and the agent has no trusted keys` },
  );
  const because = signature ? ` (${why})` : '';
  return { refusal: `${err.message}${because} (fix: ${err.fix})`, verify };
}
