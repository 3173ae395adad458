import type { Command } from 'commander';
import type { VersionFlags } from '../actions/version.js';
import { withOutput } from '../output.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork version`: the client's version and, when a kubeconfig is found, the server's (its
 * `/version`), as `kubectl version` does. Declarations only; the action loads when it runs.
 */
export const registerVersion: CommandModule = (program: Command, setExitCode) => {
  withOutput(program.command('version'), ['text', 'json', 'yaml'], 'text')
    .description('print the client version and, with a kubeconfig, the server version')
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'kubeconfig context')
    .option('--client', 'client version only')
    .action(async (flags: VersionFlags) =>
      (await import('../actions/version.js')).runVersion(flags, setExitCode),
    );
};
