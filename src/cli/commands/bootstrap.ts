import type { Command } from 'commander';
import { applyBootstrap, planBootstrap } from '../../agent/bootstrap.js';
import { httpBindOf } from '../../agent/http-server.js';
import { credentialsFromEnv } from '../../source/credentials.js';
import { toYaml } from '../../synth/canonical.js';
import { redactSecret } from '../../plan/redact.js';
import { openSession } from '../cluster-options.js';
import { ExitCode } from '../exit-code.js';
import { sourceRefOf } from '../source-flags.js';
import { parseDuration } from './engine.js';
import type { CommandModule } from './command-module.js';
import { checkRepoUrl } from '../../source/repo-url.js';

interface BootstrapFlags {
  repo: string;
  branch?: string;
  tag?: string;
  commit?: string;
  path?: string;
  overlay: string;
  namespace: string;
  mode: string;
  interval: string;
  image: string;
  replicas: string;
  print?: boolean;
  kubeconfig?: string;
  context?: string;
  networkPolicy: boolean;
  egressCidr?: string[];
  metricsNamespace?: string[];
  webhookNamespace?: string[];
  httpBind: string;
}

/** `groundwork bootstrap`: installs the agent into a cluster, with RBAC computed from the platform. */
export const registerBootstrap: CommandModule = (program: Command, setExitCode) => {
  program
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
    .option('--context <name>', 'kubeconfig context')
    .action(async (flags: BootstrapFlags) => {
      if (flags.mode !== 'detect-only' && flags.mode !== 'self-heal')
        throw new Error(`--mode must be detect-only or self-heal`);
      checkRepoUrl(flags.repo);
      const httpBind = httpBindOf(flags.httpBind, {});
      const ref = sourceRefOf(flags);
      const session = await openSession({
        dir: '.',
        ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
        ...(flags.context ? { context: flags.context } : {}),
      });
      try {
        const auth = credentialsFromEnv(process.env);
        const plan = await planBootstrap(session, {
          repository: { url: flags.repo, ref, ...(flags.path ? { path: flags.path } : {}) },
          followEnvironment: !flags.branch && !flags.tag && !flags.commit,
          overlay: flags.overlay,
          namespace: flags.namespace,
          mode: flags.mode,
          // In seconds, as the agent writes it into the PlatformSync's spec: `1m` there would be
          // taken over by the agent's `60s`, and the next bootstrap would conflict on it.
          interval: `${Math.round(parseDuration(flags.interval) / 1000)}s`,
          image: flags.image,
          replicas: Number(flags.replicas),
          httpBind,
          networkPolicy: flags.networkPolicy
            ? {
                extraCidrs: flags.egressCidr ?? [],
                ...(flags.metricsNamespace ? { metricsNamespaces: flags.metricsNamespace } : {}),
                ...(flags.webhookNamespace ? { webhookNamespaces: flags.webhookNamespace } : {}),
              }
            : false,
          ...(auth ? { auth } : {}),
          ...(process.env.GROUNDWORK_WEBHOOK_SECRET
            ? { webhookSecret: process.env.GROUNDWORK_WEBHOOK_SECRET }
            : {}),
        });
        if (flags.print) {
          process.stdout.write(
            [...plan.namespaces, ...plan.objects].map((o) => `---\n${toYaml(redactSecret(o))}`).join(''),
          );
          return;
        }
        const changes = await applyBootstrap(session, plan, `bootstrap@${new Date().toISOString()}`);
        process.stdout.write(`${changes.toString()}\n`);
        if (changes.error) return setExitCode(ExitCode.Error);
        const name = plan.objects.find((o) => o.kind === 'PlatformSync')!.metadata.name;
        process.stdout.write(
          [
            '',
            `The agent for ${plan.platform.platform}/${flags.overlay} is installed in ${flags.namespace} (${plan.platform.manifests.length} platform objects, RBAC for their kinds in their namespaces).`,
            `Its status:   kubectl -n ${flags.namespace} get platformsync ${name} -o yaml`,
            `Its logs:     kubectl -n ${flags.namespace} logs deploy/groundwork-agent`,
            `The image ${flags.image} is built from this repository's Dockerfile; push it where the cluster can pull it.`,
            '',
          ].join('\n'),
        );
      } finally {
        session.client.close();
      }
    });
};
