import type { Command } from 'commander';
import type { HubBootstrapFlags, HubRunFlags, HubTokenFlags } from '../actions/hub.js';
import type { HubUpFlags } from '../actions/hub-up.js';
import type { CommandModule } from './command-module.js';

const KUBECONFIG = [
  '--kubeconfig <file>',
  "the hub's kubeconfig (default: $KUBECONFIG, in-cluster config, ~/.kube/config)",
] as const;
const CONTEXT = ['--context <name>', 'kubeconfig context'] as const;

/**
 * `groundwork hub`: the fleet hub (docs/hub.md), in namespace `groundwork-hub`. `up` runs a local
 * hub (the embedded control plane) in the foreground, `bootstrap`
 * installs it on a cluster (or prints what it would install), `run` is its controller, `token
 * create` issues a member's one-time bootstrap kubeconfig. Declarations only; the actions load
 * when they run.
 */
export const registerHub: CommandModule = (program: Command, setExitCode) => {
  const hub = program
    .command('hub')
    .description('the fleet hub: members register and report to one apiserver');

  hub
    .command('up')
    .description(
      'run a local fleet hub in the foreground: the embedded control plane with the hub installed and its controller, until Ctrl-C (then its data is deleted)',
    )
    .option('--name <name>', 'hub name; several can run at once', 'default')
    .option('--log-level <level>', "the controller's log level (pino, on stderr)", 'info')
    .action(async (flags: HubUpFlags) => (await import('../actions/hub-up.js')).runHubUp(flags));

  hub
    .command('bootstrap')
    .description("install the hub's CRDs, namespace, ServiceAccounts, RBAC and controller Deployment")
    .option('--print', 'print the objects as YAML; install nothing')
    .option(
      '--image <ref>',
      'the Groundwork image the controller runs, built from the Dockerfile and pushed where the cluster can pull it (default: ghcr.io/groundwork-platform/groundwork:<version>, refused while that is not published)',
    )
    .option(
      '--allow-unpublished-image',
      'install the controller with the default image even though it is not published for this version (its pod waits until it exists)',
    )
    .option('--no-deployment', 'no controller Deployment (run `groundwork hub run` elsewhere)')
    .option(...KUBECONFIG)
    .option(...CONTEXT)
    .action(async (flags: HubBootstrapFlags) =>
      (await import('../actions/hub.js')).runHubBootstrap(flags, setExitCode),
    );

  hub
    .command('run')
    .description('the hub controller: answers registrations and judges heartbeats, until SIGTERM or SIGINT')
    .option(...KUBECONFIG)
    .option(...CONTEXT)
    .option('--log-level <level>', 'log level (pino)', 'info')
    .action(async (flags: HubRunFlags) => (await import('../actions/hub.js')).runHubController(flags));

  hub
    .command('token')
    .description('registration tokens')
    .command('create')
    .description(
      "issue a member's one-time registration token, as a bootstrap kubeconfig for its agent (--hub)",
    )
    .requiredOption('--member <name>', "the member's name (a DNS label of at most 40 characters)")
    .option('--labels <pairs...>', 'labels the member gets: key=value,key2=value2')
    .option('--environment <name>', 'the environment the member is placed in')
    .option('--ttl <duration>', 'how long the token works (at least 10m)', '1h')
    .option('--out <file>', 'write the bootstrap kubeconfig to this file (mode 0600) instead of stdout')
    .option(...KUBECONFIG)
    .option(...CONTEXT)
    .action(async (flags: HubTokenFlags) =>
      (await import('../actions/hub.js')).runHubTokenCreate(flags, setExitCode),
    );
};
