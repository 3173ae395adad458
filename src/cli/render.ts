import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { OutputFormat } from './output.js';

/**
 * The `yaml` package, loaded on the first YAML render only: text output (`version --client`)
 * should not pay for it. Its Node entry is CommonJS, so this is the instance `import` gives too.
 */
let yaml: typeof Yaml | undefined;
const loadYaml = (): typeof Yaml => (yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

/** What a printable result offers: a value renders as text always, as JSON when it has a shape. */
export interface Printable {
  toString(): string;
  toJSON?(): unknown;
  toMarkdown?(): string;
}

/** How to render plain data for people: results are data, and each has its own `renderX()`. */
export interface Renderers {
  /** For `text` and `table`. @default `toString()` */
  text?: () => string;
  /** For `markdown`. @default `toMarkdown()` when the value has one, else the text */
  markdown?: () => string;
}

/**
 * Renders a result in a format: JSON and YAML from the same data (`toJSON()` when the value has
 * one), Markdown from `markdown()` or `toMarkdown()`, text from `text()` or `toString()`.
 *
 * @example
 * render(path, 'markdown', { text: () => renderUpdatePath(path), markdown: () => updatePathMarkdown(path) })
 */
export function render(value: Printable | object, format: OutputFormat, renderers: Renderers = {}): string {
  const { text, markdown } = renderers;
  const data = typeof (value as Printable).toJSON === 'function' ? (value as Printable).toJSON!() : value;
  let out: string;
  if (format === 'json') out = JSON.stringify(data, null, 2);
  else if (format === 'yaml') out = loadYaml().stringify(data, { lineWidth: 0 });
  else if (format === 'markdown' && markdown) out = markdown();
  else if (format === 'markdown' && typeof (value as Printable).toMarkdown === 'function')
    out = (value as Printable).toMarkdown!();
  else out = text ? text() : String(value);
  return out.endsWith('\n') ? out : `${out}\n`;
}
