import type { Command } from 'commander';
import type { AgentFlags } from '../actions/agent.js';
import { commitStatusOptions } from '../commit-status-options.js';
import type { CommandModule } from './command-module.js';

/** `groundwork agent`: the in-cluster sync agent (also runnable from a workstation with a kubeconfig). */
export const registerAgent: CommandModule = (program: Command) => {
  commitStatusOptions(program.command('agent'))
    .description(
      'run the sync agent: fetch → synth → plan → apply → health → report, continuously, with drift watches',
    )
    .requiredOption(
      '--repo <url>',
      'git repository (http/https; credentials from --credentials-secret or GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD)',
    )
    .option('--branch <name>', 'follow this branch (default: main)')
    .option('--tag <name>', 'pin a tag')
    .option('--commit <sha>', 'pin a commit (with --branch to search it there)')
    .option('--path <dir>', 'subdirectory holding groundwork.yaml')
    .requiredOption('--overlay <name>', 'overlay to apply')
    .option(
      '--mode <mode>',
      'detect-only: report drift, change only what git changes; self-heal: also restore drifted fields',
      'self-heal',
    )
    .option(
      '--interval <duration>',
      'poll interval (± 10% jitter): fetch, and re-plan unless git and the watched objects are unchanged',
      '1m',
    )
    .option(
      '--resync-interval <duration>',
      'relist every managed kind and re-plan in full at least this often, even when nothing changed',
      '10m',
    )
    .option(
      '--namespace <ns>',
      'namespace of the status object, lease and credentials Secret',
      'groundwork-system',
    )
    .option('--sync-name <name>', 'PlatformSync name (default <platform>-<overlay>)')
    .option('--credentials-secret <name>', 'Secret in --namespace with token, or username and password')
    .option(
      '--decryption-secret <name>',
      'Secret in --namespace whose *.agekey keys hold the age identities SopsSecret files are decrypted with',
    )
    .option(
      '--verify-commits <secret>',
      'apply only commits (or followed tags) signed by a key in this Secret (or configmap/<name>) of --namespace: OpenPGP public keys and SSH allowed signers (README "Trusted commits")',
    )
    .option(
      '--trusted-keys <secret>',
      'the keys of --verify-commits without requiring them: only environments with verify: true in groundwork.yaml are checked',
    )
    .option('--leader-elect', 'run several replicas: one acts (coordination.k8s.io Lease)')
    .option('--lease-duration <duration>', 'lease duration for leader election', '15s')
    .option('--http-port <port>', 'port of /metrics, /healthz, /readyz and /webhook (0: none)', '8080')
    .option(
      '--http-bind <address>',
      'IP address the HTTP port listens on (default: 0.0.0.0 in a pod, where probes and the Service reach it; 127.0.0.1 elsewhere)',
    )
    .option(
      '--dashboard',
      'serve the read-only dashboard on the HTTP port, for bearer tokens allowed to get the PlatformSync (TokenReview, SubjectAccessReview)',
    )
    .option('--no-prune', 'never delete objects removed from git')
    .option('--max-prune-share <fraction>', 'largest share of the inventory one cycle may prune', '0.3')
    .option('--synth-timeout <duration>', 'kill a synth that runs longer', '2m')
    .option(
      '--npm-registry <url>',
      "registry of the platform's locked dependencies (package-lock.json), installed with npm ci --ignore-scripts (default: $GROUNDWORK_NPM_REGISTRY, else https://registry.npmjs.org/)",
    )
    .option('--npm-timeout <duration>', 'stop an install of the platform dependencies that runs longer', '5m')
    .option('--kubeconfig <file>', 'kubeconfig (default: in-cluster config, $KUBECONFIG, ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option('--log-level <level>', 'trace, debug, info, warn or error', 'info')
    .action(async (flags: AgentFlags) => (await import('../actions/agent.js')).runAgent(flags));
};
