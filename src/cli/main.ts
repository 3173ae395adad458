import tab from '@bomb.sh/tab/commander';
import { Command, CommanderError } from 'commander';
import { GroundworkError, errorMessage } from '../core/errors.js';
import { registerCommands } from './commands/index.js';
import type { SetExitCode } from './commands/command-module.js';
import { ExitCode } from './exit-code.js';
import { packageVersion } from '../core/package-root.js';
import { useRedactionKeyProvider } from '../core/redaction-key.js';
import { cliRedactionKey } from '../core/redaction-key-sources.js';

/** How to load each script; the bash one calls bash-completion's functions (`_get_comp_words_by_ref`). */
const COMPLETION_HELP = `
Loading the script:
  bash        needs the bash-completion package (Debian/Ubuntu: apt install bash-completion;
              Fedora/RHEL: dnf install bash-completion; macOS: brew install bash-completion@2);
              then in ~/.bashrc, after bash-completion is loaded: source <(groundwork completion bash)
  zsh         in ~/.zshrc, after compinit: source <(groundwork completion zsh)
  fish        groundwork completion fish > ~/.config/fish/completions/groundwork.fish
  powershell  in $PROFILE: groundwork completion powershell | Out-String | Invoke-Expression
`;

/**
 * The `groundwork` program: every command module's declarations (only the one serving `command`
 * when it names one) and `completion`. Declares and runs nothing; docs/cli.md is generated from it
 * (scripts/docs/cli-reference.ts).
 */
export async function commandTree(setExitCode: SetExitCode, command?: string): Promise<Command> {
  const program = new Command('groundwork')
    .description('GitOps platform bootstrapper for Kubernetes and OpenShift')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  await registerCommands(program, setExitCode, command);
  // `groundwork completion bash|zsh|fish|powershell` prints a script that asks `groundwork complete --
  // <words>` for candidates, generated from this command tree, so it never goes stale.
  tab(program, { completionCommandName: 'completion' });
  program.commands.find((c) => c.name() === 'completion')?.addHelpText('after', COMPLETION_HELP);
  return program;
}

/**
 * Runs the `groundwork` CLI with `argv` (as in `process.argv`) and resolves to the
 * process exit code. Never calls `process.exit` itself: `bin/groundwork.js` does.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode: number = ExitCode.Ok;
  // Secret values are tagged under a key (`cliRedactionKey`), read or made only once a command redacts.
  useRedactionKeyProvider(() => cliRedactionKey());
  // The first word that is not an option names the command (a module of its own, loaded alone).
  const command = argv.slice(2).find((a) => !a.startsWith('-'));
  const program = await commandTree((code) => {
    exitCode = code;
  }, command);
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? ExitCode.Ok : ExitCode.Error;
    }
    process.stderr.write(`error: ${errorMessage(err)}\n`);
    if (!(err instanceof GroundworkError) && err instanceof Error && process.env.GROUNDWORK_DEBUG) {
      process.stderr.write(`${err.stack}\n`);
    }
    return ExitCode.Error;
  }
}
