// Which `required` or `fail` of a chart's named templates (`define`) a helm failure came from,
// when helm names only the line that `include`d the template.
import type { ChartFiles } from './chart-files.js';

/** A `required` or `fail` inside a named template, and the values it tests. */
export interface FailingCall {
  /** The named template it is in (`kyverno.config.configMapName`). */
  template: string;
  /** Its file in the chart (`templates/_helpers.tpl`, `charts/sub/templates/_x.tpl`) and line. */
  file: string;
  line: number;
  /** `required`: the values it requires; `fail`: the values its action or the `if` around it reads. */
  required: string[][];
  /** The values of the `if`/`with` conditions around the call, outermost first (`config.create`). */
  conditions: string[][];
}

interface Action {
  /** The action's text, trim markers and spaces removed, cut at `MAX_ACTION` characters. */
  text: string;
  /** Its line in its file (1-based). */
  line: number;
}

interface Define {
  name: string;
  file: string;
  /** The actions of its body, nested blocks included, in order. */
  actions: Action[];
}

/** Named templates followed from the failing line, at most (each `include` chain is followed this deep). */
const MAX_DEFINES = 50;
const MAX_DEPTH = 10;
/** An action's text is read up to this many characters (real ones are far shorter). */
const MAX_ACTION = 2000;
/** A quoted template name or message is read up to this many characters. */
const MAX_QUOTED = 500;

/**
 * The `required`/`fail` call that raised `message`, found by following the named templates that
 * `text` (the failing line) calls with `include` or `template`, and the ones those call, through
 * the chart's and its subcharts' template files (pure; reads text, it does not run templates).
 * The call whose message is the literal helm printed wins; else the only `required` or `fail`
 * reached; else none. A message built at run time (`printf`) is matched only in that last way.
 */
export function failingCallFor(
  text: string,
  message: string,
  files: ChartFiles['files'],
): FailingCall | undefined {
  const defines = namedTemplates(files);
  const reached: FailingCall[] = [];
  const seen = new Set<string>();
  let frontier = calledTemplates(text);
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0 && seen.size < MAX_DEFINES; depth++) {
    const next: string[] = [];
    for (const name of frontier) {
      const define = defines.get(name);
      if (!define || seen.has(name) || seen.size >= MAX_DEFINES) continue;
      seen.add(name);
      reached.push(...callsIn(define));
      for (const a of define.actions) next.push(...calledTemplates(a.text));
    }
    frontier = next;
  }
  const wanted = message.trim();
  const exact = reached.find((c) => literalOf(defines, c) === wanted);
  if (exact) return exact;
  return reached.length === 1 ? reached[0] : undefined;
}

/** Names given to `include` and `template` in `text`: `{{ include "x.name" . }}`, `{{ template "y" . }}`. */
function calledTemplates(text: string): string[] {
  return [...text.matchAll(quotedAfter('include|template'))].map((m) => unquote(m[1], m[2]));
}

/**
 * `<word> "literal"` or `` <word> `raw` ``: the first group the double-quoted text (escapes kept),
 * the second the raw one. Each literal is read up to `MAX_QUOTED` characters, so an unterminated
 * quote costs a bounded scan per match, not one to the end of the text.
 */
function quotedAfter(words: string): RegExp {
  return new RegExp(
    `\\b(?:${words})\\s+(?:"((?:[^"\\\\]|\\\\.){0,${MAX_QUOTED}})"|\`([^\`]{0,${MAX_QUOTED}})\`)`,
    'g',
  );
}

/** A Go string literal's text, unquoted (`\\"` -> `"`); a raw one as written. */
function unquote(quoted: string | undefined, raw: string | undefined): string {
  if (raw !== undefined) return raw;
  try {
    return JSON.parse(`"${quoted ?? ''}"`) as string;
  } catch {
    return quoted ?? '';
  }
}

/**
 * The actions `{{ ... }}` of a template text with their lines, in one linear pass (no regex over
 * the whole text: a chart's file is the repository's, up to megabytes). A string holding `}}`
 * ends its action early; an unterminated `{{` ends the list.
 */
function actionsOf(text: string): Action[] {
  const out: Action[] = [];
  let line = 1;
  let newline = text.indexOf('\n');
  for (let open = text.indexOf('{{'); open >= 0;) {
    const close = text.indexOf('}}', open + 2);
    if (close < 0) break;
    for (; newline >= 0 && newline < open; newline = text.indexOf('\n', newline + 1)) line++;
    const body = text.slice(open + 2, Math.min(close, open + 2 + MAX_ACTION)).trim();
    out.push({ text: body.replace(/^-\s*/, '').replace(/\s*-$/, ''), line });
    open = text.indexOf('{{', close + 2);
  }
  return out;
}

/** Every `define` of the chart's template files, by name (helm's names are global across subcharts). */
function namedTemplates(files: ChartFiles['files']): Map<string, Define> {
  const out = new Map<string, Define>();
  for (const [file, fileText] of files) {
    if (!/^(charts\/[^/]+\/)*templates\/.+/.test(file) || !fileText.includes('define')) continue;
    // One pass with a stack of open blocks: a define's body is the actions up to its `end` (to the
    // end of the file when it has none), a range of the file's actions, not a copy per define.
    const actions = actionsOf(fileText);
    const open: { at: number; name?: string }[] = [];
    const close = (to: number): void => {
      const block = open.pop();
      if (block?.name !== undefined && !out.has(block.name))
        out.set(block.name, { name: block.name, file, actions: actions.slice(block.at + 1, to) });
    };
    actions.forEach((a, i) => {
      const define = /^define\s+"((?:[^"\\]|\\.){0,500})"/.exec(a.text);
      if (define) open.push({ at: i, name: unquote(define[1], undefined) });
      else if (/^(if|range|with|block)\b/.test(a.text)) open.push({ at: i });
      else if (/^end\b/.test(a.text)) close(i);
    });
    while (open.length > 0) close(actions.length);
  }
  return out;
}

/** The `required` and `fail` calls of one named template, with the conditions around each. */
function callsIn(define: Define): FailingCall[] {
  const out: FailingCall[] = [];
  const open: { kind: string; reads: string[][] }[] = [];
  for (const a of define.actions) {
    const head = /^(if|range|with|else|end|define|block)\b/.exec(a.text)?.[1];
    if (head === 'if' || head === 'with' || head === 'range' || head === 'define' || head === 'block')
      open.push({ kind: head, reads: head === 'if' || head === 'with' ? valuesRead(a.text) : [] });
    else if (head === 'end') open.pop();
    else if (head === 'else' && /^else\s+if\b/.test(a.text) && open.length > 0)
      open[open.length - 1]!.reads.push(...valuesRead(a.text));
    const required = /\brequired\b/.test(a.text);
    if (!required && !/\bfail\b/.test(a.text)) continue;
    const conditions = open.flatMap((o) => o.reads);
    const own = valuesRead(a.text);
    const innermost = open.filter((o) => o.reads.length > 0).at(-1)?.reads ?? [];
    out.push({
      template: define.name,
      file: define.file,
      line: a.line,
      required: own.length > 0 || required ? own : innermost,
      conditions: conditions.filter((c) => !own.some((o) => o.join('\u0000') === c.join('\u0000'))),
    });
  }
  return out;
}

/** The message literal of a call (`required "msg" ...`, `fail "msg"`), unquoted; undefined when it is built. */
function literalOf(defines: ReadonlyMap<string, Define>, call: FailingCall): string | undefined {
  const action = defines
    .get(call.template)
    ?.actions.find((a) => a.line === call.line && /\b(required|fail)\b/.test(a.text));
  const m = action && quotedAfter('required|fail').exec(action.text);
  return m ? unquote(m[1], m[2]).trim() : undefined;
}

/** Value paths a template action reads: `.Values.a.b`, `$.Values.a`, `index .Values "a" "b"`. */
export function valuesRead(text: string): string[][] {
  const found: string[][] = [];
  for (const m of text.matchAll(/(?:^|[^\w.])\$?\.Values((?:\.[A-Za-z_][\w]*)+)/g))
    found.push(m[1]!.slice(1).split('.'));
  for (const m of text.matchAll(/index\s+\$?\.Values((?:\s+"[^"]*")+)/g))
    found.push([...m[1]!.matchAll(/"([^"]*)"/g)].map((k) => k[1]!));
  const unique = new Map(found.map((p) => [p.join('\u0000'), p] as const));
  return [...unique.values()];
}
