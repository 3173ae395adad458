import { describe, expect, it } from 'vitest';
import { textTable } from '../../src/report/text-table.js';

const rows = [
  ['NAME', 'VALUE'],
  ['a-name-of-forty-characters-exactly-here!', 'short'],
];

describe('textTable', () => {
  it('aligns columns two spaces apart and trims trailing spaces', () => {
    expect(
      textTable([
        ['A', 'B'],
        ['long', 'x'],
      ]),
    ).toEqual(['A     B', 'long  x']);
  });

  it('cuts nothing without a width', () => {
    expect(textTable(rows)[1]).toBe('a-name-of-forty-characters-exactly-here!  short');
  });

  it('cuts the columns it may shrink, in order, to fit the width', () => {
    const out = textTable(rows, { width: 30, shrink: [0] });
    expect(out.every((l) => l.length <= 30)).toBe(true);
    expect(out[1]).toBe('a-name-of-forty-charac…  short'); // exactly 30
  });

  it('never shrinks a column below its minimum, even when the table then stays wider', () => {
    const out = textTable(rows, { width: 10, shrink: [0], min: 12 });
    expect(out[1]!.startsWith('a-name-of-f…  ')).toBe(true);
  });
});
