import { ApiError } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { listWithVersion } from '../cluster/list.js';
import { watchKind } from '../cluster/watch.js';
import { errorMessage } from '../core/errors.js';
import { HUB_PATHS, memberNamespace } from './hub-names.js';
import { HUB_RESOURCES, type HubLog } from './hub-resources.js';
import { decideRegistration, type RegistrationDecision } from './registration-decision.js';
import {
  memberRegistrationSchema,
  type MemberRegistrationObject,
  type RegistrationStatus,
} from './registration-schema.js';
import { requestMemberToken, setUpMember } from './member-setup.js';
import { sealCredentials } from './sealed-credentials.js';
import { tokenId } from './registration-token.js';
import { KeyedPool } from './keyed-pool.js';
import { TokenStore } from './token-store.js';
import { rfc3339 } from './schema-parts.js';

export interface RegistrationControllerOptions {
  /** The hub's namespace: registrations and token Secrets. */
  readonly namespace: string;
  /** Life of the member tokens it hands out (the TokenRequest's). @default 24 h */
  readonly memberTokenSeconds?: number;
  /** Decided registrations are deleted this long after their decision. @default 1 h */
  readonly keepDecidedMs?: number;
  /** Spent or expired token Secrets are deleted this long after. @default 24 h */
  readonly keepTokensMs?: number;
  /** How often pending registrations are relisted and old ones cleaned up. @default 30 s */
  readonly resyncMs?: number;
  /**
   * Registrations answered at once (each waits on a dozen apiserver requests); two presenting
   * the same token are never answered at once. @default 8
   */
  readonly concurrency?: number;
  readonly log: HubLog;
  readonly now?: () => Date;
}

/**
 * Answers MemberRegistrations, `concurrency` at a time (`KeyedPool`, keyed by token id): watches them in the hub's namespace (and relists
 * every `resyncMs`), decides each undecided one (`decideRegistration`), spends the token with a
 * conditional update, sets the member up (`setUpMember`), requests its token and writes it,
 * encrypted to the registration's key, into the registration's status. Refusals are written too,
 * with their reason. It also deletes decided registrations and spent token Secrets once old.
 */
export class RegistrationController {
  private readonly abort = new AbortController();
  private readonly tokens: TokenStore;
  private readonly pool: KeyedPool;
  private readonly inFlight = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly now: () => Date;
  /** Registrations decided by this process (for tests and the bench). */
  decided = 0;

  constructor(
    private readonly client: KubeClient,
    private readonly opts: RegistrationControllerOptions,
  ) {
    this.tokens = new TokenStore(client, opts.namespace);
    this.pool = new KeyedPool(opts.concurrency ?? 8);
    this.now = opts.now ?? (() => new Date());
  }

  /** Starts watching; resolves after the first list has been queued. */
  async start(): Promise<void> {
    await this.resync();
    void watchKind(this.client, HUB_RESOURCES.registrations, {
      namespace: this.opts.namespace,
      signal: this.abort.signal,
      onEvent: (type, obj) => {
        if (type !== 'DELETED') this.enqueue(obj);
      },
      onError: (err) => this.opts.log.warn({ err: errorMessage(err) }, 'registration watch'),
    });
    this.timer = setInterval(() => void this.resync().catch(() => undefined), this.opts.resyncMs ?? 30_000);
    this.timer.unref?.();
  }

  /** Stops watching; resolves once the registrations in hand are answered (those waiting are not). */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearInterval(this.timer);
    await this.pool.idle();
  }

  /** Resolves once every registration seen so far has been handled (tests, the bench). */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  /** Every registration is looked at again, old ones and spent tokens cleaned up. */
  async resync(): Promise<void> {
    const { items } = await listWithVersion(this.client, HUB_RESOURCES.registrations, this.opts.namespace);
    for (const item of items) this.enqueue(item);
    await this.cleanUp(items).catch((err: unknown) =>
      this.opts.log.warn({ err: errorMessage(err) }, 'registration clean-up'),
    );
  }

  private enqueue(obj: unknown): void {
    const parsed = memberRegistrationSchema.safeParse(obj);
    const name = (obj as { metadata?: { name?: string } }).metadata?.name;
    if (!parsed.success) {
      // Created with a spec the CRD let through but this version cannot read: refuse it by name.
      if (name && !(obj as { status?: unknown }).status && !this.inFlight.has(name)) {
        this.inFlight.add(name);
        this.pool.add(name, () =>
          this.writeStatus(name, undefined, {
            accept: false,
            reason: 'Invalid',
            message: 'the registration is malformed',
          })
            .then(() => undefined)
            .catch((err: unknown) =>
              this.opts.log.warn({ err: errorMessage(err), registration: name }, 'registration'),
            )
            .finally(() => this.inFlight.delete(name)),
        );
      }
      return;
    }
    const reg = parsed.data;
    if (reg.status || this.inFlight.has(reg.metadata.name)) return;
    this.inFlight.add(reg.metadata.name);
    // Keyed by the token: two registrations presenting one token are answered one after the other.
    this.pool.add(`token:${tokenId(reg.spec.token) ?? reg.metadata.name}`, () =>
      this.handle(reg)
        .catch((err: unknown) =>
          this.opts.log.warn(
            { err: errorMessage(err), registration: reg.metadata.name },
            'registration not answered, retried at the next resync',
          ),
        )
        .finally(() => this.inFlight.delete(reg.metadata.name)),
    );
  }

  private async handle(reg: MemberRegistrationObject): Promise<void> {
    if (this.abort.signal.aborted) return;
    const id = tokenId(reg.spec.token);
    const record = id ? await this.tokens.read(id) : undefined;
    const now = this.now();
    let decision = decideRegistration({ name: reg.metadata.name, spec: reg.spec, record, now });
    if (decision.accept && record && !decision.resumed) {
      try {
        await this.tokens.markUsed(
          record,
          { registration: reg.metadata.name, recipient: reg.spec.recipient },
          rfc3339(now),
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 409)) throw err;
        // Spent between the read and the update: by this very registration (another controller
        // process answers it: leave it to that one), or by another registration.
        const spent = id ? await this.tokens.read(id) : undefined;
        if (spent?.usedBy === reg.metadata.name && spent.usedRecipient === reg.spec.recipient) return;
        decision = {
          accept: false,
          reason: 'TokenUsed',
          message: 'the registration token was used already: a token works once',
        };
      }
    }
    if (!decision.accept) {
      this.opts.log.info(
        { registration: reg.metadata.name, member: reg.spec.member, reason: decision.reason },
        'registration refused',
      );
      await this.writeStatus(reg.metadata.name, reg, decision);
      return;
    }
    await setUpMember(this.client, {
      member: decision.member,
      labels: record!.labels,
      ...(record!.environment ? { environment: record!.environment } : {}),
    });
    const { token, expiresAt } = await requestMemberToken(
      this.client,
      decision.member,
      this.opts.memberTokenSeconds ?? 86_400,
    );
    const namespace = memberNamespace(decision.member);
    const credentials = await sealCredentials(
      { member: decision.member, namespace, token, expiresAt },
      reg.spec.recipient,
    );
    if (!(await this.writeStatus(reg.metadata.name, reg, decision, { credentials, expiresAt, namespace })))
      return;
    this.decided++;
    this.opts.log.info({ registration: reg.metadata.name, member: decision.member }, 'member registered');
  }

  private async writeStatus(
    name: string,
    reg: MemberRegistrationObject | undefined,
    decision: RegistrationDecision,
    sealed?: { credentials: string; expiresAt: string; namespace: string },
  ): Promise<boolean> {
    const status: RegistrationStatus = decision.accept
      ? {
          phase: 'Accepted',
          member: decision.member,
          namespace: sealed!.namespace,
          credentials: sealed!.credentials,
          expiresAt: sealed!.expiresAt,
          decidedAt: rfc3339(this.now()),
        }
      : {
          phase: 'Refused',
          reason: decision.reason,
          message: decision.message,
          ...(reg ? { member: reg.spec.member } : {}),
          decidedAt: rfc3339(this.now()),
        };
    // Conditional on the registration as read: only its agent writes it otherwise, so a conflict
    // means another controller process answered first, and its answer stands.
    const resourceVersion = reg?.metadata.resourceVersion;
    try {
      await this.client.request('PATCH', `${HUB_PATHS.registration(this.opts.namespace, name)}/status`, {
        body: { ...(resourceVersion ? { metadata: { resourceVersion } } : {}), status },
        contentType: 'application/merge-patch+json',
      });
      return true;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      this.opts.log.info({ registration: name }, 'registration answered by another controller');
      return false;
    }
  }

  private async cleanUp(registrations: readonly unknown[]): Promise<void> {
    const now = this.now().getTime();
    const keep = this.opts.keepDecidedMs ?? 3_600_000;
    for (const obj of registrations) {
      const parsed = memberRegistrationSchema.safeParse(obj);
      const decidedAt = parsed.success ? parsed.data.status?.decidedAt : undefined;
      if (parsed.success && decidedAt && now - Date.parse(decidedAt) > keep)
        await this.client
          .request('DELETE', HUB_PATHS.registration(this.opts.namespace, parsed.data.metadata.name))
          .catch(() => undefined);
    }
    const keepTokens = this.opts.keepTokensMs ?? 86_400_000;
    for (const t of await this.tokens.list()) {
      const spentAt = t.used ? Date.parse(t.usedAt ?? '') : NaN;
      const expired = Date.parse(t.expiresAt ?? '');
      const since = Number.isNaN(spentAt) ? expired : spentAt;
      if (!Number.isNaN(since) && now - since > keepTokens) await this.tokens.delete(t.name);
    }
  }
}
