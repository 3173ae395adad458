import semver from 'semver';

/**
 * The checks every string from outside (a catalog, an update graph, a chart index, an overlay)
 * passes before it reaches a proposal's title, edit or note. Catalogs, graphs and indexes are
 * data: a version with a newline, markdown or a path in it is refused here, not escaped later.
 */

/** The longest version or CSV name a proposal carries. */
const MAX_NAME = 253;

/** A SemVer version as helm, OLM and OpenShift write it (`1.2.3`, `4.16.21`, `0.24.1-rc.1+b2`). */
export function isSafeVersion(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 128 && semver.valid(value) === value;
}

/**
 * A CSV, package, chart or channel name: letters, digits and `.-_+`, starting and ending with a
 * letter or digit. No space, slash, newline, backquote, bracket or `..`.
 */
export function isSafeName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_NAME &&
    /^[A-Za-z0-9]([A-Za-z0-9._+-]*[A-Za-z0-9])?$/.test(value) &&
    !value.includes('..')
  );
}

/**
 * One line of plain text for a note: control characters (newlines too) become spaces, runs of
 * spaces one, cut at `max` characters with `…`. Markdown is the sink's to escape; this keeps a
 * note one line and bounded.
 */
export function oneLine(value: string, max = 300): string {
  const flat = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Whether `path` may be a proposal's edit path: repository-relative, `/`-separated, no `..` or
 * `.` segment, no leading `/`, no backslash, no control character, at most 4096 characters.
 */
export function isSafeEditPath(path: string): boolean {
  if (path.length === 0 || path.length > 4096 || path.startsWith('/') || path.includes('\\')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
