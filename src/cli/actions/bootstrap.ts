import { applyBootstrap, planBootstrap } from '../../install/bootstrap.js';
import { agentImageFor } from '../../install/agent-image.js';
import { packageVersion } from '../../core/package-root.js';
import { httpBindOf } from '../../agent/http-server.js';
import { credentialsFromEnv } from '../../source/credentials.js';
import { toYaml } from '../../render/synth/canonical.js';
import { redactSecret } from '../../core/redact.js';
import { openSession } from '../cluster-options.js';
import { ExitCode } from '../exit-code.js';
import type { SetExitCode } from '../commands/command-module.js';
import { checkRepoUrl, repoEndpoint } from '../../source/repo-url.js';
import { parseEgressHost } from '../../install/egress-hosts.js';
import { egressReport } from '../../install/egress-report.js';
import { GroundworkError, hasCode } from '../../core/errors.js';
import { commitStatusOf } from '../../agent/commit-status-flags.js';
import {
  passedOn,
  BOOTSTRAP_FLAGS,
  type AgentFlagText,
  type BootstrapFlagName,
} from '../../agent/options.js';
import { readAgentFlags, sourceRefOf } from '../../agent/options-schema.js';

/** `groundwork bootstrap`'s flags: the agent flags it passes on (`BOOTSTRAP_FLAGS`), and its own. */
export interface BootstrapFlags extends Pick<AgentFlagText, BootstrapFlagName> {
  /** Default: `defaultAgentImage(version)`, refused while unpublished unless `allowUnpublishedImage`. */
  image?: string;
  allowUnpublishedImage?: boolean;
  replicas: string;
  print?: boolean;
  /** Render from this local directory instead of fetching `--repo`. */
  from?: string;
  kubeconfig?: string;
  context?: string;
  networkPolicy: boolean;
  egressCidr?: string[];
  /** `host[:port]`, read by `parseEgressHost`. */
  egressHost?: string[];
  metricsNamespace?: string[];
  webhookNamespace?: string[];
}

/**
 * `groundwork bootstrap`: plans the agent's objects for the platform, then prints (`--print`) or
 * applies them. `--print` with no kubeconfig found plans without a cluster (`planBootstrap`), and
 * says on stderr, and in comments atop the YAML, what that leaves out.
 */
export async function runBootstrap(flags: BootstrapFlags, setExitCode: SetExitCode): Promise<void> {
  // The flags the agent gets, read by its own schema: what the agent would refuse, bootstrap refuses.
  const agent = readAgentFlags(flags, BOOTSTRAP_FLAGS);
  checkRepoUrl(agent.repo);
  if (flags.hubReleases !== undefined && flags.hub === undefined)
    throw new GroundworkError({
      code: 'MissingFlag',
      subject: '--hub-releases',
      message: 'gates releases from a fleet hub, and no --hub is given',
      fix: 'pass --hub secret/<name>, or leave --hub-releases out',
    });
  const httpBind = httpBindOf(agent.httpBind, {});
  const commitStatus = commitStatusOf(agent);
  const ref = sourceRefOf(agent);
  const extraHosts = (flags.egressHost ?? []).map(parseEgressHost);
  // Before anything is read or created: an image the cluster can never pull is refused.
  const image = agentImageFor({
    ...(flags.image !== undefined ? { image: flags.image } : {}),
    version: packageVersion(),
    allowUnpublished: Boolean(flags.allowUnpublishedImage || flags.print),
  });
  const session = await openSession({
    dir: '.',
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context ? { context: flags.context } : {}),
  }).catch((err: unknown) => {
    // --print only prints: with no kubeconfig anywhere (and none asked for) it plans without a cluster.
    if (flags.print && !flags.kubeconfig && !flags.context && hasCode(err, 'KubeconfigNotFound'))
      return undefined;
    throw err;
  });
  try {
    const auth = credentialsFromEnv(process.env);
    const plan = await planBootstrap(session, {
      ...passedOn(flags),
      repository: { url: agent.repo, ref, ...(agent.path ? { path: agent.path } : {}) },
      followEnvironment: !agent.branch && !agent.tag && !agent.commit,
      overlay: agent.overlay,
      ...(flags.from !== undefined ? { checkout: flags.from } : {}),
      namespace: agent.namespace,
      mode: agent.mode,
      // In seconds, as the agent writes it into the PlatformSync's spec: `1m` there would be
      // taken over by the agent's `60s`, and the next bootstrap would conflict on it.
      interval: `${Math.round(agent.interval / 1000)}s`,
      image,
      replicas: Number(flags.replicas),
      httpBind,
      ...(commitStatus ? { commitStatus } : {}),
      networkPolicy: flags.networkPolicy
        ? {
            extraCidrs: flags.egressCidr ?? [],
            extraHosts,
            ...(flags.metricsNamespace ? { metricsNamespaces: flags.metricsNamespace } : {}),
            ...(flags.webhookNamespace ? { webhookNamespaces: flags.webhookNamespace } : {}),
          }
        : false,
      ...(auth ? { auth } : {}),
      ...(process.env.GROUNDWORK_WEBHOOK_SECRET
        ? { webhookSecret: process.env.GROUNDWORK_WEBHOOK_SECRET }
        : {}),
    });
    const egress = egressReport({
      egress: plan.egress.allowed,
      policy: flags.networkPolicy,
      needs: plan.egress.needs,
      gitHost: repoEndpoint(agent.repo).host,
    });
    if (flags.print) {
      for (const note of plan.notes) process.stderr.write(`note: ${note}\n`);
      process.stderr.write(`${egress.join('\n')}\n`);
      process.stdout.write(
        plan.notes.map((note) => `# ${note}\n`).join('') +
          [...plan.namespaces, ...plan.objects].map((o) => `---\n${toYaml(redactSecret(o))}`).join(''),
      );
      return;
    }
    if (!session) return; // only --print gets here without one
    const changes = await applyBootstrap(session, plan, `bootstrap@${new Date().toISOString()}`);
    process.stdout.write(`${changes.toString()}\n`);
    if (changes.error) return setExitCode(ExitCode.Error);
    const name = plan.objects.find((o) => o.kind === 'PlatformSync')!.metadata.name;
    process.stdout.write(
      [
        '',
        `The agent for ${plan.platform.platform}/${agent.overlay} is installed in ${agent.namespace} (${plan.platform.manifests.length} platform objects, RBAC for their kinds in their namespaces).`,
        `Its status:   kubectl -n ${agent.namespace} get platformsync ${name} -o yaml`,
        `Its logs:     kubectl -n ${agent.namespace} logs deploy/groundwork-agent`,
        `The image ${image} is built from this repository's Dockerfile; push it where the cluster can pull it.`,
        '',
        ...egress,
        '',
      ].join('\n'),
    );
  } finally {
    session?.client.close();
  }
}
