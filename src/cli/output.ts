import { Option, type Command } from 'commander';

/** Output formats of commands that print data. `text` (or `table`) is for people; the rest for tools. */
export type OutputFormat = 'text' | 'table' | 'markdown' | 'json' | 'yaml';

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
