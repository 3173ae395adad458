import type { Command } from 'commander';

/** Sets the exit code the CLI returns once the running command finishes. */
export type SetExitCode = (code: number) => void;

/** Each command module adds its subcommands to the program. */
export type CommandModule = (program: Command, setExitCode: SetExitCode) => void;

const modules: CommandModule[] = [];

export function registerCommands(program: Command, setExitCode: SetExitCode): void {
  for (const register of modules) register(program, setExitCode);
}
