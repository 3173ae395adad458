import pino from 'pino';
import { httpBindOf } from '../../agent/http-server.js';
import { startAgent } from '../../agent/start.js';
import { parseDuration } from '../duration.js';
import { sourceRefOf, type SourceFlags } from '../source-flags.js';
import { checkRepoUrl } from '../../source/repo-url.js';
import { npmRegistryOf } from '../../source/dependencies/registry-url.js';
import { commitStatusOf, type CommitStatusFlags } from '../commit-status-flags.js';

export interface AgentFlags extends SourceFlags, CommitStatusFlags {
  overlay: string;
  mode: string;
  interval: string;
  resyncInterval: string;
  namespace: string;
  syncName?: string;
  credentialsSecret?: string;
  decryptionSecret?: string;
  verifyCommits?: string;
  trustedKeys?: string;
  leaderElect?: boolean;
  leaseDuration: string;
  httpPort: string;
  httpBind?: string;
  dashboard?: boolean;
  prune: boolean;
  maxPruneShare: string;
  synthTimeout: string;
  npmRegistry?: string;
  npmTimeout: string;
  kubeconfig?: string;
  context?: string;
  logLevel: string;
  clusterName?: string;
}

/** `groundwork agent`: starts the agent and runs it until SIGTERM or SIGINT, then stops it cleanly. */
export async function runAgent(flags: AgentFlags): Promise<void> {
  const log = pino({ name: 'groundwork-agent', level: flags.logLevel });
  checkRepoUrl(flags.repo);
  const ref = sourceRefOf(flags);
  if (flags.mode !== 'detect-only' && flags.mode !== 'self-heal')
    throw new Error(`--mode must be detect-only or self-heal, not ${flags.mode}`);
  const leaseMs = parseDuration(flags.leaseDuration);
  const port = Number(flags.httpPort);
  const host = httpBindOf(flags.httpBind, process.env);
  const commitStatus = commitStatusOf(flags);
  const agent = await startAgent({
    repository: { url: flags.repo, ref, ...(flags.path ? { path: flags.path } : {}) },
    overlay: flags.overlay,
    mode: flags.mode,
    intervalMs: parseDuration(flags.interval),
    resyncMs: parseDuration(flags.resyncInterval),
    namespace: flags.namespace,
    ...(flags.syncName ? { syncName: flags.syncName } : {}),
    ...(flags.credentialsSecret ? { credentialsSecret: flags.credentialsSecret } : {}),
    ...(flags.decryptionSecret ? { decryptionSecret: flags.decryptionSecret } : {}),
    ...(flags.verifyCommits ? { verifyCommits: flags.verifyCommits } : {}),
    ...(flags.trustedKeys ? { trustedKeys: flags.trustedKeys } : {}),
    ...(process.env.GROUNDWORK_WEBHOOK_SECRET
      ? { webhookSecret: process.env.GROUNDWORK_WEBHOOK_SECRET }
      : {}),
    ...(port > 0 ? { http: { host, port } } : {}),
    ...(flags.dashboard ? { dashboard: true } : {}),
    ...(flags.leaderElect
      ? {
          leaderElection: {
            leaseDurationMs: leaseMs,
            renewDeadlineMs: Math.round(leaseMs * 0.66),
            retryPeriodMs: Math.round(leaseMs / 7.5),
          },
        }
      : {}),
    prune: flags.prune,
    maxPruneShare: Number(flags.maxPruneShare),
    synthTimeoutMs: parseDuration(flags.synthTimeout),
    npmRegistry: npmRegistryOf(flags.npmRegistry ?? process.env.GROUNDWORK_NPM_REGISTRY),
    npmTimeoutMs: parseDuration(flags.npmTimeout),
    ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}),
    ...(flags.context ? { context: flags.context } : {}),
    ...(commitStatus ? { commitStatus } : {}),
    ...(flags.clusterName ? { clusterName: flags.clusterName } : {}),
    log,
  });
  log.info(
    {
      port: agent.port,
      bind: port > 0 ? host : undefined,
      repo: flags.repo.replace(/\/\/[^@/]*@/, '//'),
      overlay: flags.overlay,
      mode: flags.mode,
    },
    'agent started',
  );
  // SIGTERM/SIGINT: finish the objects being written, release the lease, exit cleanly.
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      log.info({ signal: sig }, 'stopping');
      resolve();
    };
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
  });
  await agent.stop();
  log.info('stopped');
}
