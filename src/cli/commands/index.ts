import type { Command } from 'commander';
import type { CommandModule, SetExitCode } from './command-module.js';

/**
 * Every command module, by the top-level commands it registers, in help order. A command module
 * only declares (commander, its flags, its help): its action imports what it needs (the Kubernetes
 * client, the synth child, isomorphic-git, ...) from `../actions/` when it runs, so `--help` and
 * completion load no action and a command loads only its own (test/cli/command-tree.test.ts).
 */
const MODULES: readonly { commands: readonly string[]; load: () => Promise<CommandModule> }[] = [
  { commands: ['quickstart'], load: async () => (await import('./quickstart.js')).registerQuickstart },
  { commands: ['init'], load: async () => (await import('./init.js')).registerInit },
  { commands: ['cluster'], load: async () => (await import('./cluster.js')).registerCluster },
  { commands: ['synth'], load: async () => (await import('./synth.js')).registerSynth },
  { commands: ['chart'], load: async () => (await import('./chart.js')).registerChart },
  { commands: ['plan', 'apply', 'drift'], load: async () => (await import('./engine.js')).registerEngine },
  { commands: ['agent'], load: async () => (await import('./agent.js')).registerAgent },
  { commands: ['renderer'], load: async () => (await import('./renderer.js')).registerRenderer },
  { commands: ['git'], load: async () => (await import('./git.js')).registerGit },
  { commands: ['bootstrap'], load: async () => (await import('./bootstrap.js')).registerBootstrap },
  { commands: ['catalog'], load: async () => (await import('./catalog.js')).registerCatalog },
  { commands: ['upgrade-path'], load: async () => (await import('./upgrade-path.js')).registerUpgradePath },
  { commands: ['propose'], load: async () => (await import('./propose.js')).registerPropose },
  { commands: ['preview'], load: async () => (await import('./preview.js')).registerPreview },
  { commands: ['fleet', 'promote'], load: async () => (await import('./fleet.js')).registerFleet },
  { commands: ['hub'], load: async () => (await import('./hub.js')).registerHub },
  { commands: ['sync'], load: async () => (await import('./sync.js')).registerSync },
  { commands: ['ui'], load: async () => (await import('./ui.js')).registerUi },
  { commands: ['tools'], load: async () => (await import('./tools.js')).registerTools },
  { commands: ['secret'], load: async () => (await import('./secret.js')).registerSecret },
  { commands: ['version'], load: async () => (await import('./version.js')).registerVersion },
];

/**
 * Registers the command modules: only the one that serves `command` when it names one, else all
 * (help, completion, an unknown command: commander needs the whole tree to answer).
 */
export async function registerCommands(
  program: Command,
  setExitCode: SetExitCode,
  command?: string,
): Promise<void> {
  const only = MODULES.filter((m) => command !== undefined && m.commands.includes(command));
  for (const m of only.length > 0 ? only : MODULES) (await m.load())(program, setExitCode);
}
