import type { Command } from 'commander';
import type { ToolsFlags } from '../actions/tools.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork tools list|build [name...]`: the Go tools Groundwork runs (helm, kustomize, sops),
 * where each comes from, and building the missing ones once. Declarations only.
 */
export const registerTools: CommandModule = (program: Command, setExitCode) => {
  const tools = program.command('tools').description('the helm, kustomize and sops binaries Groundwork runs');
  withOutput(tools.command('list'), ['text', 'json', 'yaml'], 'text')
    .description('where each tool comes from (GROUNDWORK_<TOOL>, PATH, the cache) without building')
    .action(async (flags: ToolsFlags) =>
      (await import('../actions/tools.js')).runToolsList(flags, setExitCode),
    );
  withOutput(tools.command('build [names...]'), ['text', 'json', 'yaml'], 'text')
    .description(
      'build the named tools (default: all) from the Go module proxy into the cache, unless one fits',
    )
    .option('--quiet', 'no progress on stderr')
    .action(async (names: string[], flags: ToolsFlags) =>
      (await import('../actions/tools.js')).runToolsBuild(names, flags, setExitCode),
    );
};
