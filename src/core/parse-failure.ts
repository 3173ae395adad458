// Parse errors that say where and why, and never what: the parsers' own messages quote the text
// (a code frame from `yaml`, a snippet from js-yaml and from V8's JSON.parse), and the text may be
// a file someone else wrote, so none of it reaches a message.

/** Where a YAML or JSON parser stopped, and its reason without any excerpt of the text. */
export interface ParseFailure {
  /** 1-based, when the parser said. */
  readonly line?: number;
  /** 1-based, when the parser said. */
  readonly column?: number;
  readonly reason: string;
}

/** `file:line:column` with as much of the position as is known. */
export function failureLocation(file: string, f: ParseFailure): string {
  if (f.line === undefined) return file;
  return f.column === undefined ? `${file}:${f.line}` : `${file}:${f.line}:${f.column}`;
}

/**
 * A failure of the `yaml` package (its `YAMLError`s, with `linePos`, and what `toJS` throws) or of
 * js-yaml (`YAMLException`, with `reason` and a 0-based `mark`).
 */
export function yamlFailure(err: unknown): ParseFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    message?: unknown;
    reason?: unknown;
    mark?: { line?: unknown; column?: unknown };
    linePos?: { line: number; col: number }[];
  };
  const message = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? e.message : '';
  const at = e.linePos?.[0];
  if (at) return { line: at.line, column: at.col, reason: redactReason(message) };
  const { line, column } = e.mark ?? {};
  if (typeof line === 'number' && typeof column === 'number')
    return { line: line + 1, column: column + 1, reason: redactReason(message) };
  return { reason: redactReason(message) };
}

/** A failure of `JSON.parse(text)`, positioned in `text` where V8 lets us tell. */
export function jsonFailure(err: unknown, text: string): ParseFailure {
  const message = err instanceof Error ? err.message : String(err);
  const pos = positionOf(message, text);
  const reason = redactReason(message);
  if (pos === undefined) return { reason };
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, column: pos - before.lastIndexOf('\n'), reason };
}

/** Longest reason kept; the parsers' own reasons are shorter. */
const MAX_REASON = 100;

/**
 * A parser's reason as a sentence of its own: the first line, without the position it appends
 * (` at line 3, column 1:`, ` in JSON at position 8`, ` (3:1)`), cut before anything it quotes
 * from the text (`: <token>`, `"<alias>"`, `!<tag>`, V8's `"<snippet>"...`), at most 100 characters.
 */
export function redactReason(message: string): string {
  const whole = message
    .replace(/^Unexpected token '[\s\S]', [\s\S]*$/, 'Unexpected token')
    .replace(/^(\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, 'not valid JSON');
  let reason = (whole.split('\n')[0] ?? '')
    .replace(/ at line \d+, column \d+:?\s*$/, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/\s*\(\d+:\d+\)\s*$/, '');
  for (const marker of [': ', '"', '!<', '`']) {
    const at = reason.indexOf(marker);
    if (at > 0) reason = reason.slice(0, at);
  }
  reason = reason.trim();
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason || 'syntax error';
}

/** V8's context window around a JSON error: 10 characters either side (`kMaxContextCharacters`). */
const V8_CONTEXT = 10;

/**
 * The 0-based offset of a JSON.parse error: stated (`at position 8`), or for `Unexpected token 'x',
 * "<context>"` found from the context V8 quotes (used here to locate, never repeated).
 */
function positionOf(message: string, text: string): number | undefined {
  const stated = / at position (\d+)/.exec(message);
  if (stated) return Number(stated[1]);
  const m = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (!m) return undefined;
  const [, token, cut, context] = m as unknown as [string, string, string | undefined, string];
  const start = text.indexOf(context);
  if (start < 0) return undefined;
  const pos = cut ? start + V8_CONTEXT : text.indexOf(token, start);
  return pos >= 0 && text[pos] === token ? pos : undefined;
}
