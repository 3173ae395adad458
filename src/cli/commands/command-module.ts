import type { Command } from 'commander';

/** Sets the exit code the CLI returns once the running command finishes. */
export type SetExitCode = (code: number) => void;

/**
 * Each command module adds its subcommands to the program: declarations only (names, flags, help),
 * each action a dynamic import of its module in `../actions/`. The type has its own module because
 * `index.ts` loads the command modules: they import this, never the index back.
 */
export type CommandModule = (program: Command, setExitCode: SetExitCode) => void;
