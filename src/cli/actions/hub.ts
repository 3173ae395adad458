import { writeFileSync } from 'node:fs';
import pino from 'pino';
import { KubeClient } from '../../cluster/client.js';
import { parseDuration } from '../../core/duration.js';
import { GroundworkError, errorMessage } from '../../core/errors.js';
import { packageVersion } from '../../core/package-root.js';
import { agentImageFor } from '../../install/agent-image.js';
import { HUB_NAMESPACE, MEMBER_NAME } from '../../hub/hub-names.js';
import { installHub } from '../../hub/hub-install.js';
import { hubObjects } from '../../hub/hub-objects.js';
import { runHub } from '../../hub/hub-run.js';
import { issueBootstrap } from '../../hub/hub-token.js';
import { parseMemberLabels } from '../../hub/member-labels.js';
import { toYaml } from '../../render/synth/canonical.js';
import type { SetExitCode } from '../commands/command-module.js';
import { connectionOf } from '../cluster-flags.js';
import { ExitCode } from '../exit-code.js';

interface HubConnectionFlags {
  kubeconfig?: string;
  context?: string;
}

export interface HubBootstrapFlags extends HubConnectionFlags {
  print?: boolean;
  /** Default: `defaultAgentImage(version)`, refused while unpublished unless `allowUnpublishedImage`. */
  image?: string;
  allowUnpublishedImage?: boolean;
  deployment: boolean;
}

export interface HubRunFlags extends HubConnectionFlags {
  logLevel: string;
}

export interface HubTokenFlags extends HubConnectionFlags {
  member: string;
  labels?: string[];
  environment?: string;
  ttl: string;
  out?: string;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function invalidFlag(subject: string, message: string, fix: string): GroundworkError {
  return new GroundworkError({ code: 'InvalidFlag', subject, message, fix });
}

/**
 * `groundwork hub bootstrap [--print]`: the hub's objects, printed or installed. The unpublished
 * default image is refused (`AgentImageUnpublished`) before anything is read or created, unless
 * `--allow-unpublished-image`, `--print` (only prints) or `--no-deployment` (no pod runs it).
 */
export async function runHubBootstrap(flags: HubBootstrapFlags, setExitCode: SetExitCode): Promise<void> {
  const spec = {
    namespace: HUB_NAMESPACE,
    image: agentImageFor({
      ...(flags.image !== undefined ? { image: flags.image } : {}),
      version: packageVersion(),
      allowUnpublished: Boolean(flags.allowUnpublishedImage || flags.print || !flags.deployment),
    }),
    deployment: flags.deployment,
  };
  if (flags.print) {
    process.stdout.write(
      hubObjects(spec)
        .map((o) => `---\n${toYaml(o)}`)
        .join(''),
    );
    setExitCode(ExitCode.Ok);
    return;
  }
  const client = await KubeClient.load(connectionOf(flags));
  try {
    await installHub(client, spec);
  } finally {
    client.close();
  }
  process.stdout.write(
    `hub installed in namespace ${HUB_NAMESPACE}${flags.deployment ? '' : ' (no controller Deployment)'}\n`,
  );
  setExitCode(ExitCode.Ok);
}

/** `groundwork hub run`: the controller, until SIGTERM or SIGINT. */
export async function runHubController(flags: HubRunFlags): Promise<void> {
  const log = pino({ name: 'groundwork-hub', level: flags.logLevel });
  const client = await KubeClient.load({ ...connectionOf(flags), userAgent: 'groundwork-hub' });
  const hub = await runHub(client, { namespace: HUB_NAMESPACE, log });
  log.info({ namespace: HUB_NAMESPACE }, 'hub controller started');
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await hub.stop();
  client.close();
  log.info('stopped');
}

/** `groundwork hub token create`: a one-time bootstrap kubeconfig for one member. */
export async function runHubTokenCreate(flags: HubTokenFlags, setExitCode: SetExitCode): Promise<void> {
  if (!MEMBER_NAME.test(flags.member))
    throw invalidFlag(
      '--member',
      `${JSON.stringify(flags.member.slice(0, 80))} is not a member name`,
      'name a DNS label of at most 40 characters',
    );
  if (flags.environment !== undefined && !DNS_LABEL.test(flags.environment))
    throw invalidFlag(
      '--environment',
      `${JSON.stringify(flags.environment.slice(0, 80))} is not an environment name`,
      'name a DNS label',
    );
  let ttlMs: number;
  try {
    ttlMs = parseDuration(flags.ttl);
  } catch (err) {
    throw invalidFlag('--ttl', errorMessage(err), 'write a duration such as 30m or 2h');
  }
  if (ttlMs < 600_000 || ttlMs > 7 * 86_400_000)
    throw invalidFlag(
      '--ttl',
      `${flags.ttl}: a token works from 10 minutes to 7 days`,
      'write a duration such as 30m or 2h',
    );
  const labels = parseMemberLabels(flags.labels ?? []);
  const client = await KubeClient.load(connectionOf(flags));
  try {
    const issued = await issueBootstrap(client, {
      namespace: HUB_NAMESPACE,
      member: flags.member,
      labels,
      ...(flags.environment ? { environment: flags.environment } : {}),
      ttlSeconds: ttlMs / 1000,
    });
    if (flags.out) {
      writeFileSync(flags.out, issued.kubeconfig, { mode: 0o600, flag: 'wx' });
      process.stderr.write(
        `bootstrap kubeconfig for member ${flags.member} written to ${flags.out} (expires ${issued.expiresAt}; works once)\n`,
      );
    } else process.stdout.write(issued.kubeconfig);
  } finally {
    client.close();
  }
  setExitCode(ExitCode.Ok);
}
