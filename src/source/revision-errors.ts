import { GroundworkError } from '../core/errors.js';

/** The directory is not inside a git repository (no `.git` found walking up from it). */
export class NotAGitRepositoryError extends GroundworkError {
  constructor(dir: string, cause?: unknown) {
    super({
      code: 'NotAGitRepository',
      subject: dir,
      message: 'not inside a git repository',
      fix: 'pass --dir pointing into a git checkout of the platform repository',
      cause,
    });
  }
}

/** A branch, tag, commit id or `~`/`^` suffix that names no commit in the repository. */
export class RevisionNotFoundError extends GroundworkError {
  constructor(ref: string, detail: string, cause?: unknown) {
    super({
      code: 'RevisionNotFound',
      subject: ref,
      message: detail,
      fix: 'check the name (`git rev-parse <rev>`); in CI, fetch full history (actions/checkout with fetch-depth: 0)',
      cause,
    });
  }
}

/** An abbreviated commit id that matches several objects. */
export class AmbiguousRevisionError extends GroundworkError {
  constructor(ref: string, cause?: unknown) {
    super({
      code: 'AmbiguousRevision',
      subject: ref,
      message: 'the abbreviated id matches more than one object',
      fix: 'use more hex digits, or the full commit id',
      cause,
    });
  }
}

/** The revision resolves to an object that is not a commit (a tree, a blob, or a tag of one). */
export class NotACommitError extends GroundworkError {
  constructor(ref: string, type: string) {
    super({
      code: 'NotACommit',
      subject: ref,
      message: `names a ${type}, not a commit`,
      fix: 'name a branch, a tag or a commit id',
    });
  }
}

/** An object the commit's tree refers to is missing from the object store (typically a shallow clone). */
export class MissingObjectError extends GroundworkError {
  constructor(ref: string, what: string, cause?: unknown) {
    super({
      code: 'MissingObject',
      subject: ref,
      message: `${what} is missing from the repository`,
      fix: 'fetch the full history (git fetch --unshallow; in CI, actions/checkout with fetch-depth: 0)',
      cause,
    });
  }
}

/** A tree entry whose name would escape the export directory (`..`, `.git`, a slash, a NUL). */
export class UnsafeTreeEntryError extends GroundworkError {
  constructor(ref: string, path: string) {
    super({
      code: 'UnsafeTreeEntry',
      subject: ref,
      message: `tree entry ${JSON.stringify(path)} cannot be written safely`,
      fix: 'remove the entry from the repository; git itself refuses to check it out',
    });
  }
}

/** The export destination exists and is not empty: exporting would mix two trees. */
export class ExportTargetNotEmptyError extends GroundworkError {
  constructor(dest: string) {
    super({
      code: 'ExportTargetNotEmpty',
      subject: dest,
      message: 'destination is not empty',
      fix: 'export into a new or empty directory',
    });
  }
}
