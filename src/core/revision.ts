import { z } from 'zod';

/**
 * A revision in the frozen format (docs/frozen-formats.md): `<ref>@sha1:<hex>`, where `ref` is
 * the branch (or the tag, or `HEAD` for a commit pin) and `hex` the full 40-character commit id;
 * `+dirty` at the end for a local work tree whose files differ from that commit.
 */
export interface Revision {
  readonly ref: string;
  /** The 40-character hex commit id. */
  readonly commit: string;
  /** A local work tree that differs from `commit` (`describeWorkTree`); never a fetched revision. */
  readonly dirty: boolean;
}

const FORMAT = /^(.+)@sha1:([0-9a-f]{40})(\+dirty)?$/;

/** The revision string, read: a string in the frozen format, as a `Revision`. */
export const revisionSchema = z
  .string()
  .regex(FORMAT, 'must be <ref>@sha1:<40 hex>')
  .transform((text): Revision => {
    const [, ref, commit, dirty] = FORMAT.exec(text)!;
    return { ref: ref!, commit: commit!, dirty: dirty !== undefined };
  });

/**
 * The revision string of `commit` on `ref` (the one builder of the frozen format).
 *
 * @example
 * revisionString({ ref: 'main', commit: 'e3b0…' }); // 'main@sha1:e3b0…'
 */
export function revisionString(revision: { ref: string; commit: string; dirty?: boolean }): string {
  return `${revision.ref}@sha1:${revision.commit}${revision.dirty ? '+dirty' : ''}`;
}

/** A revision string read (`revisionSchema`), or undefined for anything else (`local`, a bare id, garbage). */
export function parseRevision(text: string | undefined): Revision | undefined {
  const parsed = revisionSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A revision as people read it: `main@sha1:0123456789ab…` → `main@0123456789ab` (12 hex digits,
 * `+dirty` kept); anything else as it is.
 */
export function shortRevision(text: string): string {
  const r = parseRevision(text);
  return r ? `${r.ref}@${shortCommit(r.commit)}${r.dirty ? '+dirty' : ''}` : text;
}

/** The first 12 hex digits of a commit id, as the status and messages name a commit. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 12);
}
