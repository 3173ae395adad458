import { Option, type Command } from 'commander';
import { stringify } from 'yaml';

/** Output formats of commands that print data. `text` (or `table`) is for people; the rest for tools. */
export type OutputFormat = 'text' | 'table' | 'markdown' | 'json' | 'yaml';

/** What a printable result offers: a value renders as text always, as JSON when it has a shape. */
export interface Printable {
  toString(): string;
  toJSON?(): unknown;
  toMarkdown?(): string;
}

/**
 * Adds `-o, --output <format>` (kubectl's flag) with the formats a command prints, and the older
 * `--format <format>` as an alias. An unknown format is a usage error (exit 2) naming the allowed
 * ones, before the command does anything.
 */
export function withOutput(cmd: Command, formats: readonly OutputFormat[], fallback: OutputFormat): Command {
  return cmd
    .addOption(new Option('-o, --output <format>', 'output format').choices([...formats]).default(fallback))
    .addOption(new Option('--format <format>', 'alias of --output').choices([...formats]).hideHelp());
}

/** The format a command was asked for (`--format` wins when both are given, as the later alias). */
export function outputOf(flags: { output?: string; format?: string }): OutputFormat {
  return (flags.format ?? flags.output ?? 'text') as OutputFormat;
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
  else if (format === 'yaml') out = stringify(data, { lineWidth: 0 });
  else if (format === 'markdown' && markdown) out = markdown();
  else if (format === 'markdown' && typeof (value as Printable).toMarkdown === 'function')
    out = (value as Printable).toMarkdown!();
  else out = text ? text() : String(value);
  return out.endsWith('\n') ? out : `${out}\n`;
}
