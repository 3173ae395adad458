/**
 * Maps offsets into `text` to 1-based line numbers: the line of an offset is one more than the
 * number of `\n` before it (so `\r\n` counts once and a lone `\r` does not end a line; the `\n`
 * itself belongs to the line it ends). Offsets are clamped to `[0, text.length]`.
 *
 * The returned function keeps a cursor at the last offset asked for and counts only the newlines
 * between it and the next one, in either direction. Offsets asked in increasing order, as a parser
 * walking a file asks them, cost one pass over the text in all (a rescan from the start for every
 * blob made catalog parsing quadratic: issue 19, item 7). It keeps no table, so a 150 MB catalog
 * costs no extra memory. Any order is answered correctly, only more slowly.
 *
 * @example
 * const lineOf = lineCounter('a\nb\nc');
 * lineOf(0); // 1
 * lineOf(4); // 3
 */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0; // invariant: line === 1 + the number of '\n' in text[0, at)
  let line = 1;
  return (offset) => {
    const target = Math.max(0, Math.min(offset, text.length));
    while (at < target) {
      const nl = text.indexOf('\n', at);
      if (nl < 0 || nl >= target) at = target;
      else {
        line++;
        at = nl + 1;
      }
    }
    while (at > target) {
      const nl = text.lastIndexOf('\n', at - 1);
      if (nl < target) at = target;
      else {
        line--;
        at = nl;
      }
    }
    return line;
  };
}
