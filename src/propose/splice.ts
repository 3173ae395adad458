/** One replacement of the text between two offsets. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `text` with each splice applied (offsets of the original text); everything else byte for byte
 * as it was. Overlapping splices are refused. Pure.
 */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start < at || s.end < s.start || s.end > text.length)
      throw new Error('overlapping or invalid edit');
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + text.slice(at);
}
