// The one escaping builder for values that enter Markdown (pull-request previews, drift and sync
// reports, commit status texts): a value is shown as text, never read as Markdown or HTML.

/** Line breaks and other control characters, which would end a table row or start a block. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/**
 * `text` as HTML text, on one line: `&`, `<` and `>` as entities (so no tag, comment `<!--` or
 * autolink can start), control characters and line breaks as one space (so no block can start
 * and no row can end). For text inside HTML elements (`<summary>`, `<code>`), never attributes,
 * and the base of the Markdown escapes below. Pure.
 */
export function htmlText(text: string): string {
  return text.replace(CONTROL, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `text` as Markdown prose on one line: `htmlText`, then every character that could start
 * emphasis (`*`, `_`), a link or image (`[`, `]`), code (a backtick), strikethrough (`~`) or end a
 * table cell (`|`) escaped with a backslash, and the backslash itself. Renders as the text itself.
 * Line-start syntax (`#`, `-`, `>`, `1.`) cannot apply: a value never starts a line. Pure.
 *
 * @example
 * `- ${mdText(issue.message)}`
 */
export function mdText(text: string): string {
  return htmlText(text).replace(/([\\`*_[\]~|])/g, '\\$1');
}

/** A table cell's text (`mdText`, whose `\|` keeps a pipe from splitting the row). Pure. */
export function mdCell(text: string): string {
  return mdText(text);
}

/**
 * `text` as inline code on one line: a code span whose fence is longer than any backtick run in
 * it (padded with spaces when it starts or ends with one). Markdown and HTML inside are shown as
 * they are. Not for table cells: GitHub splits rows at `|` even inside code (`mdCodeCell`). Pure.
 */
export function mdCode(text: string): string {
  const one = text.replace(CONTROL, ' ');
  const longest = Math.max(0, ...[...one.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = one.startsWith('`') || one.endsWith('`') || one === '' ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/**
 * Inline code in a table cell: `mdCode` with each `|` as `\|` (GFM splits a row at every
 * unescaped `|` before it reads code spans, and unescapes `\|` inside them); a value holding a
 * backslash, which could escape that escape (or the `<` of `</code>`), is `<code>` with
 * `htmlText` and every Markdown punctuation character (`\`, `|`, `*`, `_`, ...) as a numeric
 * entity: Markdown is still read between HTML tags. Pure.
 */
export function mdCodeCell(text: string): string {
  if (text.includes('\\'))
    return `<code>${htmlText(text).replace(/[\\`*_[\]~|]/g, (c) => `&#${c.charCodeAt(0)};`)}</code>`;
  return mdCode(text).replace(/\|/g, '\\|');
}

/** A fenced code block whose fence (backticks) is longer than any backtick run in `body`. Pure. */
export function mdFence(body: string, lang: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const info = lang.replace(/[^A-Za-z0-9_+-]/g, '');
  return `${fence}${info}\n${body.endsWith('\n') ? body : `${body}\n`}${fence}`;
}
