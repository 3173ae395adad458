import type { Command } from 'commander';
import type { InitFlags } from '../actions/init.js';
import type { SetExitCode } from './command-module.js';

export function registerInit(program: Command, setExitCode: SetExitCode): void {
  program
    .command('init [dir]')
    .description(
      'scaffold a platform repository: groundwork.yaml, platform/, overlays/, package.json, tsconfig, PR preview workflow',
    )
    .option('--name <name>', 'platform name (default: the directory name)')
    .option('--force', 'overwrite files that exist')
    .option(
      '--groundwork-version <spec>',
      "the groundwork-gitops dependency: a version or range, a git URL, a .tgz (copied to vendor/) or a checkout directory (default: the running Groundwork's own package directory as file:<path>, since the package is not published yet)",
    )
    .action(async (dirArg: string | undefined, flags: InitFlags) =>
      (await import('../actions/init.js')).runInit(dirArg, flags, setExitCode),
    );
}
