/**
 * Whether `name` matches `pattern`, where `*` stands for any run of characters (none included) and
 * every other character for itself. Star-only globs match greedily from the left without
 * backtracking: the first and last pieces are anchored, each middle piece is found at its first
 * occurrence after the previous one. No regular expression, so no pattern can make it slow: at most
 * one scan of `name` per piece. Pure.
 *
 * @example
 * matchesPattern('cert-*-tls', 'cert-shop-tls') // true
 * matchesPattern('*', '') // true
 */
export function matchesPattern(pattern: string, name: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === name;
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (name.length < first.length + last.length) return false;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece === '') continue;
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
