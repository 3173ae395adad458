import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { VerificationFailedError } from '../source-errors.js';
import { splitCommit, splitTag } from './signed-object.js';
import type { TrustedKeys } from './trusted-keys.js';
import { verifySignature, type SignatureVerdict } from './verify-signature.js';

/** Which object was verified: a commit, or the annotated tag being followed. */
export interface VerifiedObject {
  readonly type: 'commit' | 'tag';
  readonly oid: string;
  readonly verdict: SignatureVerdict;
}

/**
 * Checks the signature of the object a fetch brought: `oid` is the fetched head, so an annotated
 * tag (when a tag is followed) is verified as a tag, and anything else as a commit. A lightweight
 * tag is its commit. Reads the raw object from the store; never checks anything out.
 */
export async function verifyFetched(opts: {
  readonly repoDir: string;
  readonly oid: string;
  readonly keys: TrustedKeys | undefined;
  readonly now: Date;
}): Promise<VerifiedObject> {
  const { type, object } = await git.readObject({ fs, dir: opts.repoDir, oid: opts.oid, format: 'content' });
  if (type !== 'commit' && type !== 'tag')
    return {
      type: 'commit',
      oid: opts.oid,
      verdict: { verified: false, problem: 'Malformed', detail: `the fetched object is a ${type}` },
    };
  const text = Buffer.from(object as Uint8Array).toString('latin1');
  const verdict = await verifySignature(
    type === 'tag' ? splitTag(text) : splitCommit(text),
    opts.keys,
    opts.now,
  );
  return { type, oid: opts.oid, verdict };
}

/** `verifyFetched`, throwing `VerificationFailed` unless the signature verifies. */
export async function requireVerified(
  opts: Parameters<typeof verifyFetched>[0] & { readonly name: string; readonly revision?: string },
): Promise<VerifiedObject> {
  const v = await verifyFetched(opts);
  if (!v.verdict.verified)
    throw new VerificationFailedError(
      v.type === 'tag' ? `tag ${opts.name} (${v.oid.slice(0, 12)})` : `commit ${v.oid.slice(0, 12)}`,
      v.verdict,
      opts.revision,
    );
  return v;
}
