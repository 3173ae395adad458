import type { Argument, Command, Option } from 'commander';

/** A table cell: one line, pipes escaped (a description never breaks the table). */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** A default as `--help` shows it: commander's description of it, else its JSON; empty when none. */
function defaultOf(item: Option | Argument): string {
  if (item.defaultValueDescription !== undefined) return `\`${cell(item.defaultValueDescription)}\``;
  if (item.defaultValue === undefined) return '';
  return `\`${cell(JSON.stringify(item.defaultValue))}\``;
}

/** What an option or argument accepts beyond its description: its choices. */
function withChoices(description: string, choices: readonly string[] | undefined): string {
  return choices?.length ? `${description} (one of: ${choices.join(', ')})` : description;
}

/** An argument as the usage line writes it: `<name>` required, `[name]` optional, `...` for a list. */
function argumentTerm(a: Argument): string {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
}

/** The words that name `cmd` from the program down (`groundwork sync status`). */
function pathOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A section for `cmd` (usage, description, arguments, options), then one for each visible subcommand. */
function section(cmd: Command, depth: number): string[] {
  const help = cmd.createHelp();
  const out = [`${'#'.repeat(Math.min(depth, 6))} ${pathOf(cmd)}`, ''];
  if (cmd.description()) out.push(cell(cmd.description()), '');
  out.push('```', help.commandUsage(cmd), '```', '');
  // Every argument, described or not (`--help` lists them only when one has a description).
  const args = cmd.registeredArguments;
  if (args.length > 0) {
    out.push('| Argument | Description | Default |', '|---|---|---|');
    for (const a of args)
      out.push(
        `| \`${argumentTerm(a)}\` | ${cell(withChoices(a.description, a.argChoices))} | ${defaultOf(a)} |`,
      );
    out.push('');
  }
  const options = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  if (options.length > 0) {
    out.push('| Option | Description | Default |', '|---|---|---|');
    for (const o of options)
      out.push(
        `| \`${cell(o.flags)}\` | ${cell(withChoices(o.description, o.argChoices))}${o.mandatory ? ' (required)' : ''} | ${defaultOf(o)} |`,
      );
    out.push('');
  }
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  if (subs.length > 0 && depth > 1) {
    out.push('| Subcommand | Description |', '|---|---|');
    for (const s of subs)
      out.push(`| [\`${s.name()}\`](#${slugOf(pathOf(s))}) | ${cell(s.summary() || s.description())} |`);
    out.push('');
  }
  for (const s of subs) out.push(...section(s, depth + 1));
  return out;
}

/** GitHub's anchor for a heading made of plain words (`groundwork sync status` → `groundwork-sync-status`). */
function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * docs/cli.md: every visible command and subcommand of `program`, depth first in declaration
 * order, each with its usage, description, arguments and options (with their defaults and
 * choices) as `--help` declares them. Pure: the same tree gives the same text.
 */
export function cliReference(program: Command): string {
  const help = program.createHelp();
  const top = help.visibleCommands(program).filter((c) => c.name() !== 'help');
  const lines = [
    '<!-- Generated from the command tree by `npm run docs` (scripts/docs/cli-reference.ts): do not edit. -->',
    '',
    '# Command-line reference',
    '',
    `${cell(program.description())}. This page is generated from the declarations \`groundwork <command> --help\` prints; every command also takes \`-h, --help\`.`,
    '',
    '| Command | Description |',
    '|---|---|',
    ...top.map(
      (c) => `| [\`${c.name()}\`](#${slugOf(pathOf(c))}) | ${cell(c.summary() || c.description())} |`,
    ),
    '',
    ...top.flatMap((c) => section(c, 2)),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
