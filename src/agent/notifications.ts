import type { Logger } from 'pino';
import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { GroundworkError, errorMessage, hasCode } from '../core/errors.js';
import type { GroundworkMetrics } from '../report/metrics.js';
import { alertTargets } from '../report/notifications/alert-targets.js';
import { fetchTransport } from '../report/notifications/fetch-transport.js';
import { forgeRepo, type Forge } from '../report/notifications/forge.js';
import type { Transport } from '../report/notifications/http-request.js';
import { Notifier } from '../report/notifications/notifier.js';
import type { NotifyEvent } from '../report/notifications/types.js';
import { scrubUrl } from '../source/fetch-error.js';
import type { ProjectConfig } from '../project/config.js';
import { environmentOf } from '../project/environments.js';

/** Commit statuses, as the agent is started with them (flags, never the repository). */
export interface CommitStatusOptions {
  /** A Secret in the agent's namespace whose key `token` may set commit statuses. */
  secret: string;
  /** @default from the repository URL: github.com, gitlab.com */
  forge?: Forge;
  /** The forge's API root. @default derived from the repository URL (forgeRepo) */
  apiUrl?: string;
  /** The link on each status (the dashboard of this cluster). */
  dashboardUrl?: string;
}

/** The notifier of a running agent: what the agent loop calls, and how start and stop drive it. */
export interface AgentNotifications {
  notify(event: NotifyEvent): void;
  /** Takes the environment and alert targets from a fetched groundwork.yaml; never throws (a bad setting is logged). */
  configure(config: ProjectConfig): Promise<void>;
  close(): Promise<void>;
}

const secretSchema = z.looseObject({
  metadata: z.looseObject({ labels: z.record(z.string(), z.string()).nullish() }),
  data: z.record(z.string(), z.string()).nullish(),
});

/**
 * Starts the agent's notifications: reads the forge token (throws `NotificationSecretInvalid`
 * when the Secret or its key is missing, `UnknownForge` when the forge cannot be told) and returns
 * the notifier. Deliveries are counted in `metrics` and logged by target and status only: a token
 * or a URL from a Secret is never logged.
 */
export async function startNotifications(opts: {
  client: KubeClient;
  namespace: string;
  repoUrl: string;
  overlay: string;
  /** Names the cluster in status contexts and alerts. @default the overlay */
  cluster?: string;
  commitStatus?: CommitStatusOptions;
  metrics: GroundworkMetrics;
  log: Logger;
  transport?: Transport;
}): Promise<AgentNotifications> {
  const { client, namespace, log, metrics } = opts;
  const read = async (name: string) => {
    try {
      const s = await client.request('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`, {
        schema: secretSchema,
      });
      const data = Object.fromEntries(
        Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      return { labels: s.metadata.labels ?? {}, data };
    } catch (err) {
      if (hasCode(err, 'NotFound')) return undefined;
      throw err;
    }
  };
  let commitStatus;
  if (opts.commitStatus) {
    const cs = opts.commitStatus;
    const repo = forgeRepo(scrubUrl(opts.repoUrl, undefined).url, {
      ...(cs.forge ? { forge: cs.forge } : {}),
      ...(cs.apiUrl ? { apiUrl: cs.apiUrl } : {}),
    });
    const token = (await read(cs.secret))?.data.token?.trim();
    if (!token)
      throw new GroundworkError({
        code: 'NotificationSecretInvalid',
        subject: `Secret ${namespace}/${cs.secret}`,
        message: 'missing, or has no key token',
        fix: `kubectl -n ${namespace} create secret generic ${cs.secret} --from-literal=token=<a token that may set commit statuses>`,
      });
    commitStatus = { repo, token, ...(cs.dashboardUrl ? { dashboardUrl: cs.dashboardUrl } : {}) };
    log.info({ forge: repo.forge, repository: repo.path }, 'commit statuses on');
  }
  const notifier = new Notifier({
    transport: opts.transport ?? fetchTransport,
    cluster: opts.cluster ?? opts.overlay,
    overlay: opts.overlay,
    ...(commitStatus ? { commitStatus } : {}),
    events: {
      delivered: (target) => metrics.notification(target, 'sent'),
      failed: (target, why) => {
        metrics.notification(target, 'failed');
        log.warn({ target, why }, 'notification not delivered');
      },
      retrying: (target, why, afterMs) => log.debug({ target, why, afterMs }, 'notification retried'),
      dropped: (target) => metrics.notification(target, 'dropped'),
    },
  });
  let applied: string | undefined;
  return {
    notify: (event) => notifier.notify(event),
    async configure(config) {
      const env = environmentOf(config.environments ?? [], opts.overlay);
      const settings = JSON.stringify([config.name, env?.name, env?.promotedFrom, env?.notifications]);
      if (settings === applied) return;
      applied = settings;
      const base = {
        platform: config.name,
        ...(env ? { environment: env.name } : {}),
        ...(env?.promotedFrom ? { promotedFrom: env.promotedFrom } : {}),
      };
      if (!env?.notifications) return notifier.configure(base);
      try {
        notifier.configure({
          ...base,
          ...alertTargets(env.notifications, await read(env.notifications.secret)),
        });
      } catch (err) {
        applied = undefined; // read again next time: the Secret may be fixed without a commit
        notifier.configure(base);
        log.warn(
          { code: err instanceof GroundworkError ? err.code : undefined },
          `alerts off: ${errorMessage(err)}`,
        );
      }
    },
    close: () => notifier.close(),
  };
}
