// Which chart values a `helm template` failure is about, read from helm's own message.
import type { ChartFiles } from './chart-files.js';
import { failingCallFor, valuesRead } from './template-calls.js';

export { valuesRead };

/** A value a helm failure points at. */
export interface ValueRef {
  /** Its path in the values given to the top chart: a subchart's values are under its name (`sub.port`). */
  path: string[];
  /**
   * How helm's message points at it: `schema`, a `values.schema.json` rule it breaks; `missing`, a
   * template read it through a nil (`nil pointer evaluating`, `index of nil pointer`); `read`, a
   * template failed reading it (`error calling add`), or the line that failed (`required`, `fail`)
   * reads it; `required`, a `required` (or `fail`) inside a named template the line includes tests
   * it (null and "" fail `required`); `condition`, an `if` around that call reads it.
   */
  how: 'schema' | 'missing' | 'read' | 'required' | 'condition';
  /** For `required` and `condition`: the named template, and its file and line in the chart. */
  via?: { template: string; file: string; line: number };
}

/** At most this many values are named for one failure. */
const MAX_REFS = 5;

/**
 * The values a helm failure (its stderr) is about, read from helm v3's messages (pure):
 * - `values don't meet the specifications of the schema(s)`: each `- at '/a/b': rule` under its
 *   chart's name (a subchart's path starts with its place in `charts/`);
 * - `executing "t" at <.Values.a.b>: ...` (also `$.Values`, `index .Values "a" "b"`), in the
 *   template's chart;
 * - `execution error at (t:line:col): ...` (`required`, `fail`): the values the template's line
 *   reads, from the chart's own file in `files`; when the line calls no `required` or `fail` but
 *   includes a named template that does (`failingCallFor`, through include chains), the values
 *   that call tests (`required`) and the `if` conditions around it (`condition`).
 * `files` are the chart's (`chartFilesOf`), for subchart names and template lines. A message
 * pointing at no value gives none.
 */
export function helmValueRefs(stderr: string, files: ChartFiles['files']): ValueRef[] {
  const lines = stderr.split('\n');
  const error = lines.find((l) => l.startsWith('Error:')) ?? '';
  if (/values don't meet the specifications of the schema/.test(error)) return schemaRefs(lines, files);
  const executing = /executing "([^"]+)" at <([^>]*)>: (.*)$/.exec(error);
  if (executing) {
    const read = valuesRead(executing[2]!);
    const how = /nil pointer|index of nil/.test(executing[3]!) ? 'missing' : 'read';
    return read.slice(0, 1).map((path) => ({ path: [...subchartOf(executing[1]!), ...path], how }));
  }
  const execution = /execution error at \(([^():\s]+\/templates\/[^():\s]+):(\d+)(?::\d+)?\): (.*)$/.exec(
    error,
  );
  if (execution) {
    const template = execution[1]!;
    const line = files.get(chartRelative(template))?.split('\n')[Number(execution[2]) - 1] ?? '';
    const prefix = subchartOf(template);
    // helm names the line that includes a named template, not the `required` inside it: find it.
    const call = /\b(required|fail)\b/.test(line) ? undefined : failingCallFor(line, execution[3]!, files);
    if (call) {
      const via = { template: call.template, file: call.file, line: call.line };
      return [
        ...call.required.map((path) => ({ path: [...prefix, ...path], how: 'required' as const, via })),
        ...call.conditions.map((path) => ({ path: [...prefix, ...path], how: 'condition' as const, via })),
      ].slice(0, MAX_REFS);
    }
    return valuesRead(line)
      .slice(0, MAX_REFS)
      .map((path) => ({ path: [...prefix, ...path], how: 'read' as const }));
  }
  return [];
}

function schemaRefs(lines: readonly string[], files: ChartFiles['files']): ValueRef[] {
  const subcharts = subchartsByName(files);
  const top = /^name:\s*['"]?([^'"\s]+)/m.exec(files.get('Chart.yaml') ?? '')?.[1];
  const refs: ValueRef[] = [];
  let prefix: string[] = [];
  for (const line of lines) {
    // Each chart whose schema fails is named on a line of its own (a subchart by its name only).
    const header = /^([^\s:-][^\s:]*):$/.exec(line);
    if (header) {
      prefix = header[1] === top ? [] : (subcharts.get(header[1]!) ?? [header[1]!]);
      continue;
    }
    const at = /^\s*- at '([^']*)':/.exec(line);
    if (!at || refs.length >= MAX_REFS) continue;
    const path = [...prefix, ...pointerSegments(at[1]!)];
    // A rule with nested reasons ("validation failed") is named once, by its first detail.
    if (refs.some((r) => r.path.join('\u0000') === path.join('\u0000'))) continue;
    refs.push({ path, how: 'schema' });
  }
  return refs;
}

/** `/a/b~1c` -> `a`, `b/c`: JSON pointer segments. */
function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .filter((s) => s !== '')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `hello/charts/sub/charts/deep/templates/a.yaml` -> `charts/sub/charts/deep/templates/a.yaml`. */
function chartRelative(template: string): string {
  return template.split('/').slice(1).join('/');
}

/** The values path of the chart a template belongs to: `hello/charts/sub/templates/a.yaml` -> `sub`. */
function subchartOf(template: string): string[] {
  const segments = chartRelative(template).split('/');
  const out: string[] = [];
  for (let i = 0; i + 1 < segments.length && segments[i] === 'charts'; i += 2) out.push(segments[i + 1]!);
  return out;
}

/** Each subchart's values path by its name: `charts/sub/charts/deep/Chart.yaml` -> deep: `sub.deep`. */
function subchartsByName(files: ChartFiles['files']): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of files.keys()) {
    const m = /^((?:charts\/[^/]+\/)+)Chart\.yaml$/.exec(path);
    if (!m) continue;
    const chain = subchartOf(`top/${m[1]!}templates/x`);
    if (!out.has(chain.at(-1)!)) out.set(chain.at(-1)!, chain);
  }
  return out;
}
