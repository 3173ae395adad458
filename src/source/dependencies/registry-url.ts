import { GroundworkError } from '../../core/errors.js';
import { NPM_REGISTRY } from './lockfile-check.js';

/**
 * The npm registry URL of `--npm-registry` / GROUNDWORK_NPM_REGISTRY, checked: http or https, no
 * credentials (the npm process gets none), ending in `/`. Undefined or empty: npm's registry.
 * Throws `InvalidFlag` naming the flag, without quoting a URL that may hold a token.
 */
export function npmRegistryOf(value: string | undefined): string {
  if (!value) return NPM_REGISTRY;
  const refuse = (why: string) =>
    new GroundworkError({
      code: 'InvalidFlag',
      subject: '--npm-registry',
      message: why,
      fix: 'pass the registry URL, e.g. https://registry.npmjs.org/ or https://npm.example.com/repository/npm/',
    });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be an http or https URL');
  if (url.username || url.password)
    throw refuse('must not hold credentials: npm installs the platform dependencies with none');
  if (url.search || url.hash) throw refuse('must have no query or fragment');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}
