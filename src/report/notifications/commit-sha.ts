import { parseRevision } from '../../core/revision.js';

/**
 * The commit of a revision string (`<branch>@sha1:<hex>`, the frozen format), or undefined for
 * anything else: a status is only ever set on the commit the cycle fetched, never on a guess.
 */
export function commitOf(revision: string | undefined): string | undefined {
  const read = parseRevision(revision);
  return read && !read.dirty ? read.commit : undefined;
}
