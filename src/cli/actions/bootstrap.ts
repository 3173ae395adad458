import { applyBootstrap, planBootstrap } from '../../install/bootstrap.js';
import { httpBindOf } from '../../agent/http-server.js';
import { credentialsFromEnv } from '../../source/credentials.js';
import { toYaml } from '../../render/synth/canonical.js';
import { redactSecret } from '../../plan/redact.js';
import { openSession } from '../cluster-options.js';
import { ExitCode } from '../exit-code.js';
import { sourceRefOf, type SourceFlags } from '../source-flags.js';
import { parseDuration } from '../duration.js';
import type { SetExitCode } from '../commands/command-module.js';
import { checkRepoUrl } from '../../source/repo-url.js';
import { hasCode } from '../../core/errors.js';
import { commitStatusOf, type CommitStatusFlags } from '../commit-status-flags.js';

export interface BootstrapFlags extends SourceFlags, CommitStatusFlags {
  clusterName?: string;
  dashboard?: boolean;
  verifyCommits?: string;
  decryptionSecret?: string;
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

/**
 * `groundwork bootstrap`: plans the agent's objects for the platform, then prints (`--print`) or
 * applies them. `--print` with no kubeconfig found plans without a cluster (`planBootstrap`), and
 * says on stderr, and in comments atop the YAML, what that leaves out.
 */
export async function runBootstrap(flags: BootstrapFlags, setExitCode: SetExitCode): Promise<void> {
  if (flags.mode !== 'detect-only' && flags.mode !== 'self-heal')
    throw new Error(`--mode must be detect-only or self-heal`);
  checkRepoUrl(flags.repo);
  const httpBind = httpBindOf(flags.httpBind, {});
  const commitStatus = commitStatusOf(flags);
  const ref = sourceRefOf(flags);
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
      ...(commitStatus ? { commitStatus } : {}),
      ...(flags.clusterName ? { clusterName: flags.clusterName } : {}),
      ...(flags.dashboard ? { dashboard: true } : {}),
      ...(flags.verifyCommits ? { verifyCommits: flags.verifyCommits } : {}),
      ...(flags.decryptionSecret ? { decryptionSecret: flags.decryptionSecret } : {}),
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
      for (const note of plan.notes) process.stderr.write(`note: ${note}\n`);
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
        `The agent for ${plan.platform.platform}/${flags.overlay} is installed in ${flags.namespace} (${plan.platform.manifests.length} platform objects, RBAC for their kinds in their namespaces).`,
        `Its status:   kubectl -n ${flags.namespace} get platformsync ${name} -o yaml`,
        `Its logs:     kubectl -n ${flags.namespace} logs deploy/groundwork-agent`,
        `The image ${flags.image} is built from this repository's Dockerfile; push it where the cluster can pull it.`,
        '',
      ].join('\n'),
    );
  } finally {
    session?.client.close();
  }
}
