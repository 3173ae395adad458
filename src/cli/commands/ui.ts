import type { UiFlags } from '../actions/ui.js';
import type { CommandModule } from './command-module.js';

/**
 * `groundwork ui [--port P]`: the read-only dashboard on 127.0.0.1, reading the cluster from the
 * kubeconfig through watches. Declarations only; the action loads when it runs.
 */
export const registerUi: CommandModule = (program) => {
  program
    .command('ui')
    .description(
      'read-only dashboard in the browser: overview, objects, drift, history, OpenShift (127.0.0.1, URL with a token)',
    )
    .option('--port <port>', 'port on 127.0.0.1 (default: a free one)')
    .option('--namespace <ns>', 'namespace of the PlatformSync (default: every namespace)')
    .option('--sync <name>', 'the PlatformSync to show (default: the first)')
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context')
    .action(async (flags: UiFlags) => (await import('../actions/ui.js')).runUi(flags));
};
