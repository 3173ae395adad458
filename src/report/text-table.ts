/**
 * Rows as an aligned text table, two spaces between columns, trailing spaces trimmed. Without a
 * `width` nothing is ever cut (a pipe, a CI log, a file: names must stay whole for grep). With one
 * (a terminal's columns), cells are cut with `…` only when the table is wider than that: the
 * columns of `shrink` first, in that order, each down to `min` characters, the others never
 * below their widest header. Pure.
 */
export function textTable(
  rows: readonly (readonly string[])[],
  opts: {
    /** Terminal columns; undefined: never cut. */
    width?: number;
    /** Column indexes that may shrink, first to give way first. @default every column, widest first */
    shrink?: readonly number[];
    /** The narrowest a shrinking column gets. @default 12 */
    min?: number;
  } = {},
): string[] {
  const natural = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const widths = opts.width === undefined ? natural : fit(natural, opts.width, opts);
  return rows.map((r) =>
    r
      .map((cell, c) => clip(cell, widths[c]!).padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  );
}

function fit(
  natural: readonly number[],
  total: number,
  opts: { shrink?: readonly number[]; min?: number },
): number[] {
  const widths = [...natural];
  const min = opts.min ?? 12;
  const used = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const order = opts.shrink ?? [...widths.keys()].sort((a, b) => widths[b]! - widths[a]!);
  for (const c of order) {
    const over = used() - total;
    if (over <= 0) break;
    widths[c] = Math.max(Math.min(min, widths[c]!), widths[c]! - over);
  }
  return widths;
}

function clip(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, Math.max(0, width - 1))}…` : s;
}
