/** A string literal of a TypeScript source: where it is, its value, and the property it is the value of. */
export interface StringLiteral {
  /** Offset of the opening quote. */
  readonly start: number;
  /** Offset just past the closing quote. */
  readonly end: number;
  readonly quote: "'" | '"' | '`';
  /** The literal's value; only literals without escapes, line breaks or `${` are listed. */
  readonly value: string;
  /** `version` for `version: '1.2.3'` (an identifier or a quoted key before `:`); undefined otherwise. */
  readonly key?: string;
}

/**
 * The plain string literals of a TypeScript source, found by a small scanner: comments (line and
 * block), the three quote kinds and template substitutions are skipped as the language does.
 * Literals with an escape, a line break or a substitution are not listed (an edit would have to
 * re-encode them). A regular-expression literal is not recognised: a quote inside one may hide
 * literals after it on that line, never invent one across a comment. Pure.
 *
 * @example
 * stringLiterals("const a = { pin: 'x.v1' }; // 'y'") // [{ start: 17, end: 23, quote: "'", value: 'x.v1', key: 'pin' }]
 */
export function stringLiterals(source: string): StringLiteral[] {
  const out: StringLiteral[] = [];
  const n = source.length;
  let i = 0;
  // Template nesting: depth of `${` per open template, so `}` closes the substitution.
  const braces: number[] = [];
  while (i < n) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') {
      const eol = source.indexOf('\n', i);
      i = eol < 0 ? n : eol;
    } else if (c === '/' && source[i + 1] === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === "'" || c === '"') {
      i = quoted(source, i, c, out);
    } else if (c === '`') {
      i = template(source, i + 1, braces, out, i);
    } else if (c === '{' && braces.length > 0) {
      braces[braces.length - 1]!++;
      i++;
    } else if (c === '}' && braces.length > 0) {
      if (braces[braces.length - 1] === 0) {
        braces.pop();
        i = template(source, i + 1, braces, out, undefined);
      } else {
        braces[braces.length - 1]!--;
        i++;
      }
    } else i++;
  }
  return out;
}

/** A '…' or "…" literal from `start`; returns the offset after it. */
function quoted(source: string, start: number, q: "'" | '"', out: StringLiteral[]): number {
  let i = start + 1;
  let plain = true;
  while (i < source.length && source[i] !== q) {
    if (source[i] === '\\') {
      plain = false;
      i += 2;
    } else if (source[i] === '\n')
      return i; // unterminated: resume at the line break
    else i++;
  }
  const end = Math.min(i + 1, source.length);
  if (plain && source[i] === q) push(source, out, start, end, q);
  return end;
}

/**
 * The rest of a template from `i` (after a backquote or a substitution's `}`): to the closing
 * backquote, or into a `${` (pushing a brace counter). `start` is the opening backquote's offset
 * when the template began here (only then can it be a plain literal).
 */
function template(
  source: string,
  i: number,
  braces: number[],
  out: StringLiteral[],
  start: number | undefined,
): number {
  let plain = start !== undefined;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      plain = false;
      i += 2;
    } else if (c === '`') {
      if (plain && start !== undefined) push(source, out, start, i + 1, '`');
      return i + 1;
    } else if (c === '$' && source[i + 1] === '{') {
      braces.push(0);
      return i + 2;
    } else {
      if (c === '\n') plain = false;
      i++;
    }
  }
  return i;
}

function push(
  source: string,
  out: StringLiteral[],
  start: number,
  end: number,
  quote: StringLiteral['quote'],
): void {
  const value = source.slice(start + 1, end - 1);
  const key = keyBefore(source, start);
  out.push({ start, end, quote, value, ...(key !== undefined ? { key } : {}) });
}

/** The property name before `:` that precedes offset `at` (whitespace and comments aside), if any. */
function keyBefore(source: string, at: number): string | undefined {
  let i = at - 1;
  while (i >= 0 && /\s/.test(source[i]!)) i--;
  if (source[i] !== ':') return undefined;
  i--;
  while (i >= 0 && /\s/.test(source[i]!)) i--;
  const q = source[i];
  if (q === "'" || q === '"') {
    const open = source.lastIndexOf(q, i - 1);
    return open < 0 ? undefined : source.slice(open + 1, i);
  }
  let j = i;
  while (j >= 0 && /[A-Za-z0-9_$]/.test(source[j]!)) j--;
  return j === i ? undefined : source.slice(j + 1, i + 1);
}
