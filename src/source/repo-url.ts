import { GroundworkError } from '../core/errors.js';
import { scrubUrl } from './fetch-error.js';

/** URL schemes the git source speaks (isomorphic-git's smart-HTTP transport). */
const SUPPORTED_SCHEMES = ['https', 'http'] as const;

/**
 * Checks a repository URL before anything starts: a scheme the source cannot fetch (`file://`,
 * `ssh://`, `git@host:path`) would otherwise fail every poll forever. Throws `UnsupportedRepoUrl`
 * naming the URL (without credentials) and the supported schemes; returns nothing on success.
 */
export function checkRepoUrl(url: string): void {
  const shown = scrubUrl(url, undefined).url;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme && (SUPPORTED_SCHEMES as readonly string[]).includes(scheme)) {
    try {
      new URL(url);
      return;
    } catch {
      throw new GroundworkError({
        code: 'UnsupportedRepoUrl',
        subject: shown,
        message: 'not a valid URL',
        fix: 'use https://<host>/<path>.git',
      });
    }
  }
  throw new GroundworkError({
    code: 'UnsupportedRepoUrl',
    subject: shown,
    message: scheme
      ? `the ${scheme}:// scheme is not supported`
      : 'not a URL with a scheme (scp-style git@host:path is not supported)',
    fix: `use one of ${SUPPORTED_SCHEMES.map((s) => `${s}://`).join(', ')} (git smart HTTP), e.g. serve a local repository with \`git http-backend\``,
  });
}
