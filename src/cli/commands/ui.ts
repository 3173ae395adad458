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
      'read-only dashboard in the browser: overview, objects, drift, history, OpenShift, fleet (127.0.0.1, URL with a token)',
    )
    .option('--port <port>', 'port on 127.0.0.1 (default: a free one)')
    .option('--namespace <ns>', 'namespace of the PlatformSync (default: every namespace)')
    .option('--sync <name>', 'the PlatformSync to show (default: the first)')
    .option(
      '--kubeconfig <file>',
      'kubeconfig file (default: $KUBECONFIG, in-cluster config, ~/.kube/config)',
    )
    .option('--context <name>', 'kubeconfig context')
    .option(
      '--dir <dir>',
      'the platform repository, for the Fleet page (default: ., when it holds groundwork.yaml)',
    )
    .option(
      '--fleet <file>',
      'fleet file for the Fleet page (default: fleet.yaml in --dir, else every context of the kubeconfig)',
    )
    .option(
      '--hub <kubeconfig>',
      'the Fleet page reads the hub instead: one watch of its FleetMembers and one of its FleetRollouts (no groundwork.yaml or fleet file needed)',
    )
    .option('--repo <url>', "the platform's git repository (default: the one the agents follow)")
    .option('--cluster-timeout <duration>', 'how long to wait for one cluster of the fleet', '10s')
    .option('--fleet-interval <duration>', 'how often the Fleet page reads the fleet (5s to 1h)', '30s')
    .option('--trusted-keys <file...>', 'public keys for the Verified gate of environments with verify: true')
    .action(async (flags: UiFlags) => (await import('../actions/ui.js')).runUi(flags));
};
