import { GroundworkError } from '../core/errors.js';

/**
 * Refuses an agent that verifies commits (`--verify-commits` or `--trusted-keys`) without
 * `--sync-name` (or, for a caller of `startAgent`, the `platform` option). Without them the
 * PlatformSync is named `<platform>-<overlay>` from the fetched groundwork.yaml: before the first
 * verified revision that is the refused commit's, which could choose the PlatformSync written,
 * and with no name the refusal reached neither a status nor an Event. `MissingFlag`, naming the
 * flag; `groundwork bootstrap` always passes it.
 */
export function checkTrustedSyncName(opts: {
  readonly verifyCommits?: string | undefined;
  readonly trustedKeys?: string | undefined;
  readonly syncName?: string | undefined;
  readonly platform?: string | undefined;
}): void {
  const keysFlag =
    opts.verifyCommits !== undefined
      ? '--verify-commits'
      : opts.trustedKeys !== undefined
        ? '--trusted-keys'
        : undefined;
  if (!keysFlag || opts.syncName !== undefined || opts.platform !== undefined) return;
  throw new GroundworkError({
    code: 'MissingFlag',
    subject: '--sync-name',
    message: `${keysFlag} needs --sync-name: the PlatformSync's name is not taken from a commit that may be refused, so a refusal reaches its status and an Event`,
    fix: 'pass --sync-name <platform>-<overlay> (the name groundwork bootstrap gives it; kubectl get psync -A shows it)',
  });
}
