import type { Command } from 'commander';
import type { BootstrapFlags } from '../actions/bootstrap.js';
import type { CommandModule } from './command-module.js';
import { agentFlagOptions } from '../agent-flag-options.js';

/**
 * `groundwork bootstrap`: installs the agent into a cluster, with RBAC computed from the platform.
 * The agent flags it passes on are declared in `AGENT_FLAGS` (src/agent/agent-flags.ts); these are its own.
 */
export const registerBootstrap: CommandModule = (program: Command, setExitCode) => {
  agentFlagOptions(
    program
      .command('bootstrap')
      .description(
        'install the sync agent: namespace, service account, least-privilege RBAC, credentials, status object, Deployment',
      ),
    { bootstrap: true },
  )
    .option(
      '--image <ref>',
      'agent image, built from the Dockerfile and pushed where the cluster can pull it (default: ghcr.io/groundwork-platform/groundwork:<version>, refused while that is not published)',
    )
    .option(
      '--allow-unpublished-image',
      'install with the default image even though it is not published for this version (its pods wait until it exists)',
    )
    .option('--replicas <n>', 'agent replicas (leader election: one acts)', '2')
    .option(
      '--egress-cidr <cidr...>',
      "more CIDRs the agent may reach (a git host or registry whose addresses change, a proxy); the NetworkPolicy allows DNS, the apiserver and the git host's addresses",
    )
    .option(
      '--egress-host <host[:port]...>',
      'more hosts the agent may reach, resolved now to their addresses as the git host is (port 443 unless given): the npm registry of a package-lock.json, remote chart repositories; bootstrap says which the platform needs',
    )
    .option(
      '--metrics-namespace <ns...>',
      'namespaces whose pods may scrape /metrics (default: openshift-monitoring and openshift-user-workload-monitoring on OpenShift, else monitoring)',
    )
    .option(
      '--webhook-namespace <ns...>',
      "namespaces that may POST /webhook, when GROUNDWORK_WEBHOOK_SECRET is set (default: OpenShift's router namespaces, by their policy-group label; else ingress-nginx)",
    )
    .option(
      '--no-network-policy',
      "do not install the NetworkPolicy that limits the agent to the cluster DNS, the apiserver, git and the renderer (the renderer's own, which denies all its egress, is always installed)",
    )
    .option('--print', 'print the objects as YAML instead of applying them (Secret values redacted)')
    .option(
      '--from <dir>',
      'render the platform from this local directory (holding groundwork.yaml) instead of fetching --repo: no network or git credentials needed to plan; the agent still fetches --repo',
    )
    .option('--kubeconfig <file>', 'kubeconfig file')
    .option('--context <name>', 'kubeconfig context')
    .action(async (flags: BootstrapFlags) =>
      (await import('../actions/bootstrap.js')).runBootstrap(flags, setExitCode),
    );
};
