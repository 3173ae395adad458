import { randomUUID } from 'node:crypto';
import { slackRequest, webhookRequest, type AlertOrigin } from './alert-request.js';
import type { AlertTarget } from './alert-targets.js';
import { decide, EMPTY_MEMORY, type NotifyMemory } from './decide.js';
import { DeliveryQueue, type DeliveryEvents } from './delivery-queue.js';
import { statusRequest, type ForgeRepo } from './forge.js';
import type { Transport } from './http-request.js';
import type { RetryPolicy } from './retry.js';
import type { NotifyEvent } from './types.js';

export interface NotifierOptions {
  transport: Transport;
  /** Metrics and logs of deliveries (the target's name and a status; never a request). */
  events?: DeliveryEvents;
  /** Commit statuses: the forge repository and the token (from the agent's Secret). Absent: none. */
  commitStatus?: { repo: ForgeRepo; token: string; dashboardUrl?: string };
  /** The cluster's name in status contexts and alerts. */
  cluster: string;
  overlay: string;
  retry?: RetryPolicy;
  capacity?: number;
  attemptTimeoutMs?: number;
  now?: () => number;
}

/** The target name commit statuses are counted under in the metrics. */
export const FORGE_TARGET = 'forge';

/**
 * Tells the forge and the alert targets what the agent does. `notify` decides at once (`decide`,
 * pure) and queues the requests (`DeliveryQueue`): it never waits on the network, so a cycle is
 * never slowed by a forge or a receiver. `configure` sets the environment (the status context
 * `groundwork/<environment>/<cluster>`) and its alert targets from the last fetched groundwork.yaml.
 */
export class Notifier {
  private memory: NotifyMemory = EMPTY_MEMORY;
  private environment: string;
  private promotedFrom: string | undefined;
  private platform = 'platform';
  private targets: readonly AlertTarget[] = [];
  private dedupWindowMs = 15 * 60_000;
  private readonly queue: DeliveryQueue;

  constructor(private readonly opts: NotifierOptions) {
    this.environment = opts.overlay;
    this.queue = new DeliveryQueue({
      transport: opts.transport,
      ...(opts.events ? { events: opts.events } : {}),
      ...(opts.retry ? { retry: opts.retry } : {}),
      ...(opts.capacity ? { capacity: opts.capacity } : {}),
      ...(opts.attemptTimeoutMs ? { attemptTimeoutMs: opts.attemptTimeoutMs } : {}),
    });
  }

  /** The environment (its name; the overlay when groundwork.yaml has none), platform and alert targets. */
  configure(settings: {
    promotedFrom?: string;
    environment?: string;
    platform?: string;
    targets?: readonly AlertTarget[];
    dedupWindowMs?: number;
  }): void {
    this.environment = settings.environment ?? this.opts.overlay;
    this.promotedFrom = settings.promotedFrom;
    if (settings.platform) this.platform = settings.platform;
    this.targets = settings.targets ?? [];
    if (settings.dedupWindowMs !== undefined) this.dedupWindowMs = settings.dedupWindowMs;
  }

  /** The commit status context. */
  get context(): string {
    return `groundwork/${this.environment}/${this.opts.cluster}`;
  }

  /** Decides what `event` produces and queues it; returns at once. */
  notify(event: NotifyEvent): void {
    const now = (this.opts.now ?? Date.now)();
    const commit = this.opts.commitStatus;
    const out = decide(this.memory, event, {
      context: this.context,
      now,
      dedupWindowMs: this.dedupWindowMs,
      environment: {
        name: this.environment,
        ...(this.promotedFrom ? { promotedFrom: this.promotedFrom } : {}),
      },
      ...(commit?.dashboardUrl ? { targetUrl: commit.dashboardUrl } : {}),
    });
    this.memory = out.memory;
    if (commit)
      for (const s of out.statuses)
        this.queue.push(FORGE_TARGET, statusRequest(commit.repo, s, commit.token), {
          coalesce: `${s.sha} ${s.context}`,
        });
    const origin: AlertOrigin = {
      platform: this.platform,
      environment: this.environment,
      cluster: this.opts.cluster,
      overlay: this.opts.overlay,
    };
    const at = new Date(now).toISOString();
    for (const alert of out.alerts)
      for (const t of this.targets) {
        if (t.events && !t.events.includes(alert.event)) continue;
        this.queue.push(
          t.name,
          t.type === 'slack'
            ? slackRequest(t.url, alert, origin)
            : webhookRequest(t.url, alert, origin, {
                id: randomUUID(),
                at,
                ...(t.signingKey ? { signingKey: t.signingKey } : {}),
              }),
        );
      }
  }

  /** Deliveries waiting or in flight. */
  get pending(): number {
    return this.queue.pending;
  }

  /** Gives what is queued up to `drainMs` (default 2 s), then drops the rest (counted). */
  close(drainMs = 2000): Promise<void> {
    return this.queue.close({ drainMs });
  }
}
