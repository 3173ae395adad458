import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { htmlText, mdCell, mdCode, mdCodeCell, mdFence, mdText } from '../../src/report/markdown.js';

// CommonMark with GFM tables and raw HTML on, as GitHub reads a comment (it sanitizes after).
const md = new MarkdownIt({ html: true, linkify: false });

/** What a reader sees of a value: control characters and line breaks as one space. */
// eslint-disable-next-line no-control-regex
const seen = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');

/** The cells of every body row of the first table, as plain text. */
function tableCells(markdown: string): string[][] {
  const tokens = md.parse(markdown, {});
  const rows: string[][] = [];
  let row: string[] | undefined;
  let inBody = false;
  for (const t of tokens) {
    if (t.type === 'tbody_open') inBody = true;
    if (t.type === 'tbody_close') break;
    if (!inBody) continue;
    if (t.type === 'tr_open') row = [];
    if (t.type === 'tr_close' && row) rows.push(row);
    if (t.type === 'inline' && row) row.push(inlineText(t.children ?? []));
  }
  return rows;
}

function inlineText(children: { type: string; content: string }[]): string {
  return children
    .map((c) =>
      c.type === 'text' || c.type === 'code_inline'
        ? c.content
        : c.type === 'html_inline'
          ? `\u0001${c.content}\u0001`
          : '',
    )
    .join('');
}

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      '|',
      '\n',
      '`',
      '<',
      '!',
      '-',
      '>',
      '[',
      ']',
      '(',
      ')',
      '\\',
      '*',
      '_',
      '&',
      'a',
      ' ',
      '#',
      '~',
    ),
    maxLength: 40,
  }),
  fc.constantFrom(
    'ConfigMap |\n\n<!--',
    '<!-- x -->',
    '`|`',
    '\\|',
    '[x](https://evil)',
    '![i](x)',
    '</details>',
    '<script>',
  ),
);

describe('the Markdown builder', () => {
  it('shows text as text', () => {
    expect(mdText('a <!-- b | *c* [d](e) `f`')).toBe('a &lt;!-- b \\| \\*c\\* \\[d\\](e) \\`f\\`');
    expect(htmlText('a\n\n<b>&')).toBe('a &lt;b&gt;&amp;');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('`a')).toBe('`` `a ``');
    expect(mdCodeCell('a|b')).toBe('`a\\|b`');
    expect(mdCodeCell('a\\|_b')).toBe('<code>a&#92;&#124;&#95;b</code>');
    expect(mdFence('x ``` y', 'diff')).toBe('````diff\nx ``` y\n````');
  });

  it('property: a table of any values has exactly its rows and columns, each cell showing its value', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(hostile, hostile, hostile), { minLength: 1, maxLength: 5 }), (rows) => {
        const markdown = [
          '| a | b | c |',
          '| --- | --- | --- |',
          ...rows.map(([a, b, c]) => `| ${mdCell(a)} | ${mdCodeCell(b)} | ${mdCell(c)} |`),
          '',
          'after',
        ].join('\n');
        const cells = tableCells(markdown);
        expect(cells).toHaveLength(rows.length);
        for (const [i, [a, b, c]] of rows.entries()) {
          expect(cells[i]).toHaveLength(3);
          expect(cells[i]![0]).toBe(seen(a).trim());
          // inline code keeps its spaces; <code> arrives as html_inline around the text
          // eslint-disable-next-line no-control-regex
          expect(cells[i]![1]!.replace(/\u0001<\/?code>\u0001/g, '').trim()).toBe(seen(b).trim());
          expect(cells[i]![2]).toBe(seen(c).trim());
        }
        expect(md.parse(markdown, {}).some((t) => t.type === 'html_block')).toBe(false);
        expect(md.render(markdown)).toContain('<p>after</p>');
      }),
      { numRuns: 3000 },
    );
  });

  it('property: prose and code in a line stay one paragraph with no HTML of their own', () => {
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        const markdown = `- **error** ${mdCode(a)}: ${mdText(b)}\n\nafter`;
        const tokens = md.parse(markdown, {});
        const inline = tokens.filter((t) => t.type === 'inline');
        expect(inline).toHaveLength(2);
        const text = inlineText(inline[0]!.children ?? []);
        expect(text).not.toContain('\u0001');
        expect(text).toContain(seen(b).trim());
        expect(tokens.some((t) => t.type === 'html_block')).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});
