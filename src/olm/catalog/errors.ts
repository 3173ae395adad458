import { GroundworkError } from '../../core/errors.js';
import { formatProblem, type CatalogProblem } from './blobs.js';

/**
 * A catalog that cannot be read: every problem found, each naming its file,
 * blob and field. Thrown once, after the whole catalog has been looked at.
 */
export class CatalogInvalidError extends GroundworkError {
  readonly problems: readonly CatalogProblem[];

  constructor(subject: string, problems: readonly CatalogProblem[]) {
    const lines = problems.map((p) => `  - ${formatProblem(p)}`);
    super({
      code: 'CatalogInvalid',
      subject,
      message: `file-based catalog has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
      fix: 'correct the catalog files (`opm validate <dir>` checks the same rules)',
    });
    this.problems = problems;
  }
}

/** A catalog path that cannot be read at all (missing, unreadable, no catalog files in it). */
export class CatalogUnreadableError extends GroundworkError {
  constructor(subject: string, message: string, cause?: unknown) {
    super({
      code: 'CatalogUnreadable',
      subject,
      message,
      fix: 'point to an FBC file or a directory of .yaml/.yml/.json FBC files',
      cause,
    });
  }
}
