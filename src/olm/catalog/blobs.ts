import { parseAllDocuments } from 'yaml';
import { jsonFailure, yamlFailure, type ParseFailure } from '../../core/parse-failure.js';
import { lineCounter } from './line-counter.js';

/** One catalog file's text, as read from disk or given by a test. */
export interface CatalogFile {
  readonly path: string;
  readonly text: string;
}

/** Where a blob sits: its file, its 1-based position among the file's blobs, and the line it starts on. */
export interface BlobRef {
  readonly file: string;
  readonly index: number;
  readonly line: number;
}

/** `blob 3 (line 40)`: a blob named by position, before (or without) its schema and name. */
export function blobLabel(ref: BlobRef): string {
  return `blob ${ref.index} (line ${ref.line})`;
}

/** Called with each blob that parsed, in file order. */
type BlobVisitor = (ref: BlobRef, value: unknown) => void;

/** One problem found while reading a catalog, located by file, blob and field path. */
export interface CatalogProblem {
  readonly file: string;
  /** E.g. `blob 3 (line 40, olm.bundle foo.v0.2.0)`; absent for problems about a whole file. */
  readonly blob?: string;
  /** Dotted field path inside the blob, e.g. `entries.1.skipRange`. */
  readonly path?: string;
  readonly message: string;
}

/** `file: blob 3 (line 40, olm.bundle foo.v0.2.0): entries.1.skipRange: not a semver range`. */
export function formatProblem(p: CatalogProblem): string {
  return [p.file, p.blob, p.path, p.message].filter((s) => s !== undefined && s !== '').join(': ');
}

/**
 * Splits one file into blobs and hands each to `visit` as soon as it is parsed, so that a caller
 * that keeps only what it needs lets the rest of each blob die young (issue 19, item 7): a YAML
 * multi-document stream, or a JSON stream (concatenated objects, as `opm render` writes them).
 * The format follows the extension (`.json` is JSON, anything else YAML, which also reads single
 * JSON documents). Never throws: syntax errors come back as the file's problems, in file order.
 */
export function readBlobs(file: CatalogFile, visit: BlobVisitor): CatalogProblem[] {
  return file.path.endsWith('.json') ? splitJsonStream(file, visit) : splitYamlStream(file, visit);
}

function splitYamlStream(file: CatalogFile, visit: BlobVisitor): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const lineAt = lineCounter(file.text);
  let index = 0;
  for (const doc of parseAllDocuments(file.text)) {
    if (doc.contents === null && doc.errors.length === 0) continue; // an empty document, e.g. a leading `---`
    index++;
    const line = lineAt(doc.contents?.range?.[0] ?? doc.range[0]);
    const firstError = doc.errors[0];
    if (firstError) {
      problems.push({
        file: file.path,
        blob: `blob ${index} (line ${line})`,
        message: parseMessage(yamlFailure(firstError)),
      });
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      problems.push({
        file: file.path,
        blob: `blob ${index} (line ${line})`,
        message: yamlFailure(err).reason,
      });
      continue;
    }
    visit({ file: file.path, index, line }, value);
  }
  return problems;
}

function splitJsonStream(file: CatalogFile, visit: BlobVisitor): CatalogProblem[] {
  const { text } = file;
  const lineAt = lineCounter(text);
  const problems: CatalogProblem[] = [];
  let index = 0;
  let i = 0;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) return problems;
    index++;
    const ref = { file: file.path, index, line: lineAt(i) };
    // Past a stray token or an unclosed object there is no telling where the next blob starts.
    if (text.charCodeAt(i) !== OPEN_BRACE) {
      problems.push({ file: file.path, blob: blobLabel(ref), message: 'expected a JSON object' });
      return problems;
    }
    const end = endOfObject(text, i);
    if (end < 0) {
      problems.push({ file: file.path, blob: blobLabel(ref), message: 'unterminated JSON object' });
      return problems;
    }
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end));
    } catch (err) {
      // The braces balance, so the next blob still starts at `end`: keep reading to report every problem.
      problems.push({
        file: file.path,
        blob: blobLabel(ref),
        message: jsonFailure(err, text.slice(i, end)).reason,
      });
      i = end;
      continue;
    }
    visit(ref, value);
    i = end;
  }
}

/** Offset of the first character at or after `i` that `/\s/` does not match (the common ones by code). */
function skipSpace(text: string, i: number): number {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c < 0x80 && c !== 0x0b && c !== 0x0c) return i;
    if (!/\s/.test(text[i] as string)) return i;
  }
  return i;
}

/**
 * A parser's reason and position, never its excerpt of the text: the parsers quote the file
 * (a code frame, a snippet), and a catalog may be someone else's file.
 */
function parseMessage(f: ParseFailure): string {
  return f.line === undefined ? f.reason : `${f.reason} at line ${f.line}, column ${f.column ?? 1}`;
}

/**
 * Offset just past the object starting at `start`, or -1 when it never closes. Strings are skipped
 * with `indexOf` (a quote preceded by an odd run of backslashes is escaped), and the rest is read
 * as char codes: this scan touches every byte of the catalog once, so it stays cheap.
 */
function endOfObject(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Offset of the quote closing the string opened at `open`, or -1 when it never closes. */
function endOfString(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
