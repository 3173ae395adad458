import { POST_SYNTH_CHECKS } from '../reconcile/domains.js';
import { hostname } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { KubeClient } from '../cluster/client.js';
import { EventRecorder } from '../cluster/event-recorder.js';
import { dataObjectSchema } from '../cluster/response-body.js';
import { SyncStatusStore } from '../cluster/sync-status-store.js';
import { cacheRoot } from '../core/cache-root.js';
import { useRedactionKey } from '../core/redaction-key.js';
import { GroundworkMetrics } from '../report/metrics.js';
import { credentialsFromEnv, credentialsFromSecretData, type GitAuth } from '../source/credentials.js';
import type { AgentOptions } from './options.js';
import { AGENT_DEFAULTS } from './options-schema.js';
import { checkoutRoot } from '../source/checkouts.js';
import { fetchRevision } from '../source/fetch-revision.js';
import { PollSchedule } from '../source/schedule.js';
import { webhookHandler } from '../source/webhook.js';
import { renderPlatform, synthSandboxSummary } from '../render/render-platform.js';
import { installDependencies } from '../source/dependencies/install.js';
import { npmRegistryOf } from '../source/dependencies/registry-url.js';
import { Agent } from './agent.js';
import { loadPlatformData } from '../reconcile/domains.js';
import { agentDesired } from './agent-desired.js';
import { AgentHttpServer } from './http-server.js';
import { startAgentDashboard } from '../ui/agent-dashboard.js';
import type { DesiredSource } from '../ui/desired-objects.js';
import { LeaderElector } from './leader-election.js';
import { leaseName } from '../core/object-name.js';
import { agentRedactionKey, REDACTION_KEY_SECRET } from './redaction-key-secret.js';
import type { AgentPorts } from './agent-ports.js';
import { ClusterSession } from '../reconcile/cluster-session.js';
import { AgentRunner } from './runner.js';
import { checkRepoUrl } from '../source/repo-url.js';
import { readTrustedKeys, trustedKeysRefOf } from './trusted-keys-source.js';
import { checkTrustedSyncName } from './trusted-sync-name.js';
import { decryptSopsSecrets } from '../secrets/decrypt-secrets.js';
import { refuseAgentNamespaceObjects } from '../plan/agent-namespace.js';
import { environmentFor } from '../project/project.js';
import { identitiesFromSecret } from './decryption-secret.js';
import { startNotifications } from './notifications.js';
import { HubLink } from './hub-link.js';
import { HubReportingStatusStore } from './hub-status-store.js';
import { HUB_CREDENTIALS_SECRET, MemberCredentialsStore } from '../hub/member-credentials-store.js';
import { ReleasedFetch } from './released-fetch.js';
import { hubSourceOf } from '../hub/hub-source.js';

/** A started agent: its HTTP port, its runner (while leading) and how to stop it. */
export interface RunningAgent {
  port: number | undefined;
  /** The runner of the current leadership term (undefined on a standby). */
  runner(): AgentRunner | undefined;
  isLeader(): boolean;
  /** The desired objects of the revision the agent last applied, redacted (for a dashboard beside it). */
  desired: DesiredSource;
  /** Stops gracefully: finishes the objects being written, releases the lease. */
  stop(): Promise<void>;
}

/**
 * Starts the in-cluster sync agent: HTTP endpoints, then (under leader election when configured)
 * the runner. Synth runs in a child process without cluster credentials; git credentials go to the
 * source only and are never logged.
 */
export async function startAgent(opts: AgentOptions): Promise<RunningAgent> {
  checkRepoUrl(opts.repository.url); // before any connection: a URL that can never work is an input error
  checkTrustedSyncName(opts);
  const log = opts.log ?? pino({ name: 'groundwork-agent', level: opts.logLevel ?? AGENT_DEFAULTS.logLevel });
  // What holds platform code on this machine: a PID namespace needs unprivileged user namespaces.
  log.info(
    opts.renderer
      ? { isolation: `renderer: the renderer pod at ${new URL(opts.renderer).host}` }
      : await synthSandboxSummary(),
    'synth sandbox',
  );
  const namespace = opts.namespace ?? AGENT_DEFAULTS.namespace;
  const mode = opts.mode ?? AGENT_DEFAULTS.mode;
  const intervalMs = opts.intervalMs ?? AGENT_DEFAULTS.interval;
  const resyncMs = opts.resyncMs ?? AGENT_DEFAULTS.resyncInterval;
  const keysFlag = opts.verifyCommits ?? opts.trustedKeys;
  // The branch a hub release is searched on; a tag or commit pin is never moved by the hub.
  const ref = opts.repository.ref;
  const branch = 'branch' in ref && !('commit' in ref) ? ref.branch.replace(/^refs\/heads\//, '') : undefined;
  const verifyRef = keysFlag ? trustedKeysRefOf(keysFlag) : undefined;
  const client = await KubeClient.load({
    ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
    ...(opts.context ? { context: opts.context } : {}),
    userAgent: 'groundwork-agent',
  });
  const auth =
    opts.auth ??
    (opts.credentialsSecret
      ? await secretAuth(client, namespace, opts.credentialsSecret)
      : credentialsFromEnv(process.env));
  // Before anything is redacted: Secret values in Events and the status are tagged under this key.
  useRedactionKey(await agentRedactionKey(client, { namespace, onWarning: (message) => log.warn(message) }));
  const metrics = new GroundworkMetrics();
  const identity = opts.leaderElection?.identity ?? process.env.POD_NAME ?? `${hostname()}-${process.pid}`;
  const cacheDir = opts.cacheDir ?? join(cacheRoot(), 'agent', identity);
  // Checked once (npmRegistryOf: http(s), no credentials), from the option or the environment.
  const npmRegistry = opts.npmRegistry ?? npmRegistryOf(process.env.GROUNDWORK_NPM_REGISTRY);
  const notifications = await startNotifications({
    client,
    namespace,
    repoUrl: opts.repository.url,
    overlay: opts.overlay,
    ...(opts.clusterName ? { cluster: opts.clusterName } : {}),
    ...(opts.commitStatus ? { commitStatus: opts.commitStatus } : {}),
    metrics,
    log,
  });

  /** The ref, or exactly `pin` searched on the branch (a hub release); `verify: false`: no signature check. */
  const fetchAt = async (pin: string | undefined, { verify }: { verify: boolean }) => {
    const trust = verify &&
      verifyRef && {
        keys: await readTrustedKeys(client, namespace, verifyRef),
        required: opts.verifyCommits !== undefined,
      };
    return fetchRevision({
      url: opts.repository.url,
      ref: pin ? { commit: pin, branch: branch! } : opts.repository.ref,
      cacheDir,
      ...(opts.repository.path ? { path: opts.repository.path } : {}),
      ...(auth ? { auth } : {}),
      ...(trust ? { trust } : {}),
    });
  };
  const ports: AgentPorts = {
    fetch: async () => {
      // `--hub`: the hub's releases say which commit of the branch (release-gate.ts).
      const r = released ? await released.fetch() : await fetchAt(undefined, { verify: true });
      return {
        revision: r.revision,
        dir: r.dir,
        signature: r.signature,
        verifyRequired: !!verifyRef && opts.verifyCommits !== undefined,
        commitInfo: r.commitInfo,
      };
    },
    // The explicit step for each checkout's project: the environment and its alert targets.
    useProject: (project) => notifications.configure(project),
    synth: async (project, overlay) => {
      const dir = project.dir;
      // A checkout has no node_modules: its locked libraries come from the dependency cache.
      const libraries = await installDependencies({
        dir,
        cacheDir: join(cacheDir, 'dependencies'),
        registry: npmRegistry,
        timeoutMs: opts.npmTimeoutMs ?? AGENT_DEFAULTS.npmTimeout,
      });
      if (libraries)
        log.info({ cached: libraries.cached, ms: libraries.ms }, 'platform dependencies installed');
      // Platform code, helm and kustomize run in the renderer (trust domain `agent`): it holds no
      // credential, sees no network and no process of the agent; its answer is parsed as data.
      const [result] = await renderPlatform(project, {
        overlay,
        domain: 'agent',
        checks: POST_SYNTH_CHECKS,
        ...(libraries ? { libraryRoots: [libraries.root] } : {}),
        treeRoot: checkoutRoot(dir, opts.repository.path ?? '.'),
        cacheDir,
        timeoutMs: opts.synthTimeoutMs ?? AGENT_DEFAULTS.synthTimeout,
        // Unset: sized from the container's memory limit (heapCapFor), so a hostile platform fails synth, not the agent.
        ...(opts.synthMemoryMb ? { memoryMb: opts.synthMemoryMb } : {}),
        ...(opts.trustRepository ? { trustRepository: true } : {}),
        // The renderer pod: the bytes go there, and repository content never runs in this pod.
        ...(opts.renderer ? { renderer: opts.renderer } : {}),
        warn: (message) => log.warn(message),
      });
      // Nothing that could act as the agent in its namespace, nothing bound to its ServiceAccount,
      // none of the Secrets and ConfigMaps it reads: refused before any key is read.
      const alertSecret = environmentFor(project, overlay)?.notifications?.secret;
      refuseAgentNamespaceObjects(result!.manifests, {
        namespace,
        scope: 'workloads',
        reserved: [
          ...[
            opts.credentialsSecret,
            opts.decryptionSecret,
            opts.commitStatus?.secret,
            alertSecret,
            REDACTION_KEY_SECRET,
            ...(opts.hub ? [HUB_CREDENTIALS_SECRET, hubSecretName(opts.hub)] : []),
          ].flatMap((name) => (name ? [{ kind: 'Secret' as const, name }] : [])),
          ...(verifyRef ? [verifyRef] : []),
        ],
      });
      // SopsSecrets are decrypted here, in the agent, after rendering, on data; plaintext stays in memory.
      return decryptSopsSecrets(result!, (file) =>
        identitiesFromSecret(client, { namespace, name: opts.decryptionSecret, file }),
      );
    },
    platformData: (project) => loadPlatformData(project),
    notify: (event) => notifications.notify(event),
    event: async (regarding, e) => {
      await events.record({ regarding, ...e });
    },
  };
  const events = new EventRecorder(client, { reportingInstance: identity });
  // `--hub`: each status write is also reported to the hub; the hub never holds up or fails a cycle.
  const hub = opts.hub
    ? HubLink.start({
        local: client,
        namespace,
        hub: opts.hub,
        overlay: opts.overlay,
        ...(opts.syncName ? { syncName: opts.syncName } : {}),
        log,
        onProblem: (name, reason, note) =>
          void events
            .record({
              regarding: { group: 'groundwork.io', kind: 'PlatformSync', namespace, name },
              type: 'Warning',
              reason,
              action: 'Report',
              note,
            })
            .catch(() => undefined),
        ...(opts.hubRetry ? { retry: opts.hubRetry } : {}),
        ...(opts.hubPacing ? { pacing: opts.hubPacing } : {}),
        onRelease: () => runner?.trigger('release'),
      })
    : undefined;
  const released =
    hub && branch !== undefined
      ? new ReleasedFetch({
          policy: opts.hubReleases ?? AGENT_DEFAULTS.hubReleases,
          branch,
          fetch: fetchAt,
          hubRelease: () => hub.release(),
          kept: new MemberCredentialsStore(client, namespace),
          onHold: (hold) => hub.held(hold),
        })
      : undefined;
  const statusStore = hub
    ? new HubReportingStatusStore(client, { namespace }, hub)
    : new SyncStatusStore(client, { namespace });

  let runner: AgentRunner | undefined;
  /** The agent of the current leadership term: the dashboard reads its last applied revision. */
  let current: Agent | undefined;
  let pendingTrigger = false;
  const newRunner = () => {
    // The managed kinds are read from watch-fed caches between full resyncs (a LIST only while a
    // watch is down, filling or expired).
    const session = new ClusterSession(client, {
      onWarning: (message) => log.warn(message),
      cache: {
        resyncMs,
        onError: (err) => log.debug({ err: String(err) }, 'cache watch error, retrying'),
      },
    });
    const agent = new Agent(session, ports, {
      overlay: opts.overlay,
      mode,
      fullPlanEveryMs: opts.fullPlanEveryMs ?? resyncMs,
      ...(opts.prune !== undefined ? { prune: opts.prune } : {}),
      ...(opts.maxPruneShare !== undefined ? { maxPruneShare: opts.maxPruneShare } : {}),
    });
    current = agent;
    return new AgentRunner({
      agent,
      session,
      schedule: new PollSchedule({ intervalMs, jitter: opts.jitter ?? 0.1 }),
      sync: {
        ...(opts.syncName ? { name: opts.syncName } : {}),
        ...(opts.platform ? { platform: opts.platform } : {}),
        overlay: opts.overlay,
        spec: {
          repository: {
            url: opts.repository.url,
            ref: opts.repository.ref as { branch?: string; tag?: string; commit?: string },
            ...(opts.repository.path ? { path: opts.repository.path } : {}),
          },
          overlay: opts.overlay,
          mode,
          interval: `${Math.round(intervalMs / 1000)}s`,
        },
      },
      statusStore,
      events,
      metrics,
      log,
      ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
    });
  };

  const lead = async (signal: AbortSignal) => {
    metrics.leader(true);
    runner = newRunner();
    runner.start();
    if (pendingTrigger) runner.trigger('webhook');
    await new Promise<void>((resolve) =>
      signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await runner.stop();
    metrics.leader(false);
  };

  const elector = opts.leaderElection
    ? new LeaderElector({
        client,
        name: leaseName(opts.syncName ?? opts.overlay),
        namespace,
        identity,
        ...(opts.leaderElection.leaseDurationMs
          ? { leaseDurationMs: opts.leaderElection.leaseDurationMs }
          : {}),
        ...(opts.leaderElection.renewDeadlineMs
          ? { renewDeadlineMs: opts.leaderElection.renewDeadlineMs }
          : {}),
        ...(opts.leaderElection.retryPeriodMs ? { retryPeriodMs: opts.leaderElection.retryPeriodMs } : {}),
        onStartedLeading: lead,
        onNewLeader: (who) => log.info({ leader: who || '(none)', self: identity }, 'leader observed'),
      })
    : undefined;
  const desired = agentDesired(() => current?.state.lastGood);
  const dashboard =
    opts.http && opts.dashboard
      ? await startAgentDashboard({
          client,
          namespace,
          desired,
          ...(opts.syncName ? { syncName: opts.syncName } : {}),
          onError: (err) => log.warn({ err: String(err) }, 'dashboard watch'),
        })
      : undefined;
  const server = opts.http
    ? new AgentHttpServer({
        ...(dashboard ? { dashboard: dashboard.handler } : {}),
        ...(opts.http.host ? { host: opts.http.host } : {}),
        port: opts.http.port,
        metrics,
        ready: () =>
          elector && !elector.isLeader
            ? { ready: true, reason: 'standby' }
            : runner?.ready
              ? true
              : { ready: false, reason: 'first reconcile not finished' },
        ...(opts.webhookSecret
          ? {
              webhook: webhookHandler({
                secret: opts.webhookSecret,
                onPush: (push) => {
                  log.info({ provider: push.provider, ref: push.ref, commit: push.commit }, 'webhook push');
                  if (runner) runner.trigger('webhook');
                  else pendingTrigger = true;
                },
                onError: (err) => log.warn({ err: String(err) }, 'webhook rejected'),
              }),
            }
          : {}),
      })
    : undefined;
  const listening = server ? await server.start() : undefined;

  const stopLocal = new AbortController();
  const electing = elector ? elector.run() : lead(stopLocal.signal);
  void electing.catch((err: unknown) => log.error({ err: String(err) }, 'agent stopped with an error'));

  return {
    port: listening?.port,
    runner: () => runner,
    isLeader: () => (elector ? elector.isLeader : true),
    desired,
    async stop() {
      if (elector) await elector.stop({ release: true });
      else stopLocal.abort();
      await electing.catch(() => undefined);
      await server?.close();
      dashboard?.stop();
      await notifications.close();
      await hub?.stop();
      await events.close();
      client.close();
    },
  };
}

async function secretAuth(client: KubeClient, namespace: string, name: string): Promise<GitAuth | undefined> {
  const secret = await client.request('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`, {
    schema: dataObjectSchema,
  });
  return credentialsFromSecretData(secret.data ?? {});
}

/** The Secret `--hub secret/<name>` names, else undefined. */
function hubSecretName(hub: string): string | undefined {
  const source = hubSourceOf(hub);
  return source.kind === 'secret' ? source.name : undefined;
}
