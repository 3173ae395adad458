import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineCounter } from '../../../src/olm/catalog/line-counter.js';

/** The definition, read straight off the text: one more than the `\n` before the (clamped) offset. */
function naiveLine(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

describe('lineCounter', () => {
  it.each([
    { title: 'empty text', text: '', offset: 0, want: 1 },
    { title: 'offset 0', text: 'a\nb', offset: 0, want: 1 },
    { title: 'on the newline: it belongs to the line it ends', text: 'a\nb', offset: 1, want: 1 },
    { title: 'just after the newline', text: 'a\nb', offset: 2, want: 2 },
    { title: 'at the end, after a trailing newline', text: 'a\nb\n', offset: 4, want: 3 },
    { title: 'past the end: clamped', text: 'a\nb\n', offset: 99, want: 3 },
    { title: 'negative: clamped to 0', text: 'a\nb', offset: -5, want: 1 },
    { title: 'blank lines', text: '\n\n\nx', offset: 3, want: 4 },
    { title: 'CRLF counts once', text: 'a\r\nb\r\nc', offset: 6, want: 3 },
    { title: 'a lone CR ends no line', text: 'a\rb\rc', offset: 4, want: 1 },
    { title: 'astral characters are two code units', text: '😀\n😀\nx', offset: 6, want: 3 },
  ])('$title', ({ text, offset, want }) => {
    expect(lineCounter(text)(offset)).toBe(want);
  });

  it('answers offsets asked backwards and repeatedly, not only in order', () => {
    const text = 'l1\nl2\nl3\nl4\n';
    const lineOf = lineCounter(text);
    expect([9, 9, 3, 0, 11, 12, 5, 6, 2].map(lineOf)).toEqual([4, 4, 2, 1, 4, 5, 2, 3, 1]);
  });

  it('agrees with a count from the start for any text and any sequence of offsets', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', '\n', '\r', ' ', '{', '😀'), { maxLength: 60 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -3, max: 130 }), { maxLength: 30 }), (t, offsets) => {
        const lineOf = lineCounter(t);
        for (const o of offsets) expect(lineOf(o)).toBe(naiveLine(t, o));
      }),
      { numRuns: 500 },
    );
  });
});
