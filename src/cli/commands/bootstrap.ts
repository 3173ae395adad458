import type { Command } from 'commander';
import type { BootstrapFlags } from '../actions/bootstrap.js';
import type { CommandModule } from './command-module.js';
import { commitStatusOptions } from '../commit-status-options.js';

/** `groundwork bootstrap`: installs the agent into a cluster, with RBAC computed from the platform. */
export const registerBootstrap: CommandModule = (program: Command, setExitCode) => {
  const command = program
    .command('bootstrap')
    .description(
      'install the sync agent: namespace, service account, least-privilege RBAC, credentials, status object, Deployment',
    )
    .requiredOption(
      '--repo <url>',
      'platform repository (credentials from GROUNDWORK_GIT_TOKEN / _USERNAME / _PASSWORD)',
    )
    .option(
      '--branch <name>',
      "branch to follow (default: the ref of the overlay's environment in groundwork.yaml, else main)",
    )
    .option('--tag <name>', 'pin a tag')
    .option('--commit <sha>', 'pin a commit')
    .option('--path <dir>', 'subdirectory holding groundwork.yaml')
    .requiredOption('--overlay <name>', 'overlay the agent applies')
    .option('--namespace <ns>', 'namespace of the agent', 'groundwork-system')
    .option('--mode <mode>', 'detect-only or self-heal', 'self-heal')
    .option('--interval <duration>', 'poll interval', '1m')
    .option(
      '--image <ref>',
      'agent image (build it from the Dockerfile)',
      'ghcr.io/groundwork-platform/groundwork:0.1.0',
    )
    .option('--replicas <n>', 'agent replicas (leader election: one acts)', '2')
    .option(
      '--verify-commits <secret>',
      'the agent applies only commits signed by a key in this Secret (or configmap/<name>) of --namespace, and may get it (README "Trusted commits")',
    )
    .option(
      '--decryption-secret <secret>',
      'the agent decrypts SopsSecrets with the age identities in this Secret of --namespace (*.agekey keys), and may get it (README "Secrets")',
    )
    .option(
      '--dashboard',
      'the agent serves the read-only dashboard (its --dashboard), and its ServiceAccount is bound to system:auth-delegator for the token reviews',
    )
    .option(
      '--egress-cidr <cidr...>',
      "more CIDRs the agent may reach (a git host whose addresses change, a proxy); the NetworkPolicy allows DNS, the apiserver and the git host's addresses",
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
      'do not install the NetworkPolicy that limits the agent to the cluster DNS, the apiserver and git',
    )
    .option(
      '--http-bind <address>',
      "the agent's --http-bind in its pod (:: on an IPv6-only cluster; probes and the Service need the pod IP)",
      '0.0.0.0',
    )
    .option('--print', 'print the objects as YAML instead of applying them (Secret values redacted)')
    .option('--kubeconfig <file>', 'kubeconfig file')
    .option('--context <name>', 'kubeconfig context');
  commitStatusOptions(command).action(async (flags: BootstrapFlags) =>
    (await import('../actions/bootstrap.js')).runBootstrap(flags, setExitCode),
  );
};
