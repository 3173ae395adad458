import type { Command } from 'commander';
import { registerAgent } from './agent.js';
import { registerBootstrap } from './bootstrap.js';
import { registerCatalog } from './catalog.js';
import { registerCluster } from './cluster.js';
import { registerPreview } from './preview.js';
import { registerQuickstart } from './quickstart.js';
import { registerEngine } from './engine.js';
import { registerInit } from './init.js';
import { registerSynth } from './synth.js';
import { registerUpgradePath } from './upgrade-path.js';
import { registerVersion } from './version.js';

/** Sets the exit code the CLI returns once the running command finishes. */
export type SetExitCode = (code: number) => void;

/** Each command module adds its subcommands to the program. */
export type CommandModule = (program: Command, setExitCode: SetExitCode) => void;

const modules: CommandModule[] = [
  registerQuickstart,
  registerInit,
  registerCluster,
  registerSynth,
  registerEngine,
  registerAgent,
  registerBootstrap,
  registerCatalog,
  registerUpgradePath,
  registerPreview,
  registerVersion,
];

export function registerCommands(program: Command, setExitCode: SetExitCode): void {
  for (const register of modules) register(program, setExitCode);
}
