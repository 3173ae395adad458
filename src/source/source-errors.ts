import { GroundworkError } from '../core/errors.js';
import type { SignatureVerdict, VerificationProblem } from './trust/verify-signature.js';

// Errors of the remote git source (fetch, credentials, webhooks). Subjects and messages never hold
// credentials: the URL is scrubbed of userinfo, and every message from below is passed through
// `redact` before it gets here.

/** The remote could not be reached or answered with an error (network failure, HTTP status, not a git server). */
export class FetchFailedError extends GroundworkError {
  /** The HTTP status when the server answered, e.g. 404 or 503. */
  readonly statusCode: number | undefined;

  constructor(url: string, detail: string, opts: { statusCode?: number; cause?: unknown } = {}) {
    super({
      code: 'FetchFailed',
      subject: url,
      message: `fetch failed: ${detail}`,
      fix:
        opts.statusCode === 404
          ? 'check the repository URL'
          : 'check the URL and that the git server is reachable from the agent; the next poll retries',
      cause: opts.cause,
    });
    this.statusCode = opts.statusCode;
  }
}

/**
 * The remote has no such branch or tag, or the pinned commit is not on the fetched branch. Same
 * code as `RevisionNotFoundError` (a local repository), with a fix for a remote.
 */
export class RemoteRevisionNotFoundError extends GroundworkError {
  constructor(ref: string, detail: string, cause?: unknown) {
    super({
      code: 'RevisionNotFound',
      subject: ref,
      message: detail,
      fix: 'check that it exists on the remote (`git ls-remote <url>`); a pinned commit must be on the branch (or on HEAD)',
      cause,
    });
  }
}

/** The server refused the credentials (HTTP 401 or 403), or wants some and none were given. */
export class AuthFailedError extends GroundworkError {
  readonly statusCode: number;

  constructor(url: string, statusCode: number, withCredentials: boolean, cause?: unknown) {
    super({
      code: 'AuthFailed',
      subject: url,
      message: withCredentials
        ? `the server refused the credentials (HTTP ${statusCode})`
        : `the server requires credentials (HTTP ${statusCode})`,
      fix: withCredentials
        ? 'check the token or password and that it may read the repository'
        : 'set GROUNDWORK_GIT_TOKEN (or GROUNDWORK_GIT_USERNAME and GROUNDWORK_GIT_PASSWORD), or reference a git Secret',
      cause,
    });
    this.statusCode = statusCode;
  }
}

/** The fetch did not finish within `timeoutMs`; it was aborted. */
export class FetchTimeoutError extends GroundworkError {
  constructor(url: string, timeoutMs: number) {
    super({
      code: 'FetchTimeout',
      subject: url,
      message: `fetch did not finish within ${timeoutMs} ms and was aborted`,
      fix: 'check the network path to the git server, or raise the timeout for large repositories',
    });
  }
}

/** The configured `path` is not a directory in the fetched commit. */
export class PathNotFoundError extends GroundworkError {
  constructor(path: string, revision: string, detail = 'is not a directory in the commit') {
    super({
      code: 'PathNotFound',
      subject: `${path} at ${revision}`,
      message: detail,
      fix: 'set path to the directory holding groundwork.yaml, relative to the repository root',
    });
  }
}

/** Credentials from the environment or a Secret are incomplete or not decodable. */
export class InvalidCredentialsError extends GroundworkError {
  constructor(source: string, detail: string, fix = 'give either a token, or a username and a password') {
    super({
      code: 'InvalidCredentials',
      subject: source,
      message: detail,
      fix,
    });
  }
}

/** A webhook body that is not a push or ping payload the parser understands. */
export class InvalidWebhookPayloadError extends GroundworkError {
  constructor(provider: string, detail: string) {
    super({
      code: 'InvalidWebhookPayload',
      subject: `${provider} webhook`,
      message: detail,
      fix: 'send JSON: GitHub push events (content type application/json), or {"ref": "refs/heads/<branch>", "commit": "<sha>"}',
    });
  }
}

/**
 * The fetched commit (or, following a tag, the annotated tag) is not signed by a trusted key:
 * unsigned, an unknown or expired or revoked key, a signature that does not verify. Nothing of it
 * is checked out for synth. `verdict` says why, with the key id and signer when known.
 */
export class VerificationFailedError extends GroundworkError {
  readonly verdict: SignatureVerdict & { verified: false };
  /** The refused revision (`<branch>@sha1:<hex>`), when the fetch knew it. */
  readonly revision: string | undefined;

  constructor(object: string, verdict: SignatureVerdict & { verified: false }, revision?: string) {
    const key = verdict.keyId && !verdict.detail.includes(verdict.keyId) ? `, key ${verdict.keyId}` : '';
    const signer = verdict.signer ? `, signer ${verdict.signer}` : '';
    super({
      code: 'VerificationFailed',
      subject: object,
      message: `${verdict.problem}: ${verdict.detail}${key}${signer}`,
      fix: VERIFICATION_FIXES[verdict.problem],
    });
    this.verdict = verdict;
    this.revision = revision;
  }
}

const VERIFICATION_FIXES: Record<VerificationProblem, string> = {
  Unsigned:
    'sign it with a trusted key (git commit -S, with gpg or gpg.format=ssh) and push; the last good revision stays applied',
  UnknownKey:
    'sign with a key in the trusted keys, or add this public key to the Secret or ConfigMap named by --verify-commits',
  BadSignature:
    'the content does not match its signature (tampered, or re-written after signing): sign the commit again and push',
  ExpiredKey:
    'extend the key’s expiry and put the refreshed public key in the trusted keys (or its valid-before), or sign with a current key',
  RevokedKey: 'sign with a key that is not revoked; the revoked key stays refused',
  Malformed: 'sign the commit again with git commit -S; the signature block cannot be read',
  UnsupportedFormat:
    'sign with OpenPGP (gpg) or SSH (gpg.format=ssh) keys; X.509 and security-key (sk-) signatures are not verified',
  NoTrustedKeys: 'give the agent trusted keys with --verify-commits <Secret or configmap/<name>>',
};
