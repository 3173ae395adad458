import { z } from 'zod';
import { isNotFound } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { LABELS, MEMBER_NAME, TOKEN_SECRET_TYPE } from './hub-names.js';
import { newRegistrationToken, tokenHash, tokenSecretName } from './registration-token.js';
import { dnsLabel, time } from './schema-parts.js';

/** What a registration token grants, as its Secret keeps it (never the token itself). */
export interface TokenRecord {
  readonly id: string;
  readonly hash: string;
  readonly member: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly environment?: string;
  readonly expiresAt: string;
  readonly used: boolean;
  /** The registration that used it. */
  readonly usedBy?: string;
  /** The key (age recipient) it was used for: only that registration with that key may resume. */
  readonly usedRecipient?: string;
  /** The Secret's resourceVersion: marking it used is conditional on it. */
  readonly resourceVersion: string;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const b64 = z.string().transform((s) => Buffer.from(s, 'base64').toString('utf8'));
const secretSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), resourceVersion: z.string() }),
  type: z.string().optional(),
  data: z.looseObject({
    hash: b64.pipe(z.string().regex(/^[0-9a-f]{64}$/)),
    member: b64.pipe(z.string().regex(MEMBER_NAME)),
    labels: b64.pipe(z.string().transform(jsonOrUndefined).pipe(z.record(z.string(), z.string()))),
    environment: b64.pipe(dnsLabel).optional(),
    expiresAt: b64.pipe(time),
    used: b64.pipe(z.enum(['true', 'false'])),
    usedBy: b64.optional(),
    usedRecipient: b64.optional(),
  }),
});

const secretPath = (namespace: string, name?: string) =>
  `/api/v1/namespaces/${namespace}/secrets${name ? `/${name}` : ''}`;

/**
 * The registration-token Secrets in the hub's namespace: `create` makes a token and keeps its
 * hash, `read` finds a token's record, `markUsed` spends it with an update conditional on the
 * record's resourceVersion (of two registrations racing for one token, one gets a 409 Conflict).
 */
export class TokenStore {
  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
  ) {}

  /** A new token for `member`, valid until `expiresAt`: the token text is returned once, never stored. */
  async create(grant: {
    member: string;
    labels: Readonly<Record<string, string>>;
    environment?: string;
    expiresAt: string;
  }): Promise<{ id: string; token: string }> {
    const { id, token } = newRegistrationToken();
    await this.client.request('POST', secretPath(this.namespace), {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: tokenSecretName(id),
          namespace: this.namespace,
          labels: { [LABELS.token]: 'true', [LABELS.member]: grant.member },
        },
        type: TOKEN_SECRET_TYPE,
        stringData: {
          hash: tokenHash(token),
          member: grant.member,
          labels: JSON.stringify(grant.labels),
          ...(grant.environment ? { environment: grant.environment } : {}),
          expiresAt: grant.expiresAt,
          used: 'false',
        },
      },
      noRetry: true,
    });
    return { id, token };
  }

  /** The record of token `id`, or undefined when there is none (or it is not a token Secret). */
  async read(id: string): Promise<TokenRecord | undefined> {
    let raw: unknown;
    try {
      raw = await this.client.request('GET', secretPath(this.namespace, tokenSecretName(id)), {
        schema: z.unknown(),
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const parsed = secretSchema.safeParse(raw);
    if (!parsed.success || parsed.data.type !== TOKEN_SECRET_TYPE) return undefined;
    const d = parsed.data.data;
    return {
      id,
      hash: d.hash,
      member: d.member,
      labels: d.labels,
      ...(d.environment ? { environment: d.environment } : {}),
      expiresAt: d.expiresAt,
      used: d.used === 'true',
      ...(d.usedBy ? { usedBy: d.usedBy } : {}),
      ...(d.usedRecipient ? { usedRecipient: d.usedRecipient } : {}),
      resourceVersion: parsed.data.metadata.resourceVersion,
    };
  }

  /** Spends the token: a merge patch conditional on `record`'s resourceVersion (409 when it moved). */
  async markUsed(
    record: TokenRecord,
    by: { registration: string; recipient: string },
    at: string,
  ): Promise<void> {
    await this.client.request('PATCH', secretPath(this.namespace, tokenSecretName(record.id)), {
      body: {
        metadata: { resourceVersion: record.resourceVersion },
        stringData: { used: 'true', usedBy: by.registration, usedRecipient: by.recipient, usedAt: at },
      },
      contentType: 'application/merge-patch+json',
      noRetry: true,
    });
  }

  /** The names and times of every token Secret (for the controller's clean-up). */
  async list(): Promise<{ name: string; expiresAt?: string; used: boolean; usedAt?: string }[]> {
    const list = await this.client.request('GET', secretPath(this.namespace), {
      query: { labelSelector: `${LABELS.token}=true` },
      schema: z.looseObject({
        items: z.array(
          z.looseObject({
            metadata: z.looseObject({ name: z.string() }),
            data: z.record(z.string(), z.string()).optional(),
          }),
        ),
      }),
    });
    const text = (v: string | undefined) =>
      v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
    return list.items.map((s) => ({
      name: s.metadata.name,
      ...(text(s.data?.expiresAt) ? { expiresAt: text(s.data?.expiresAt)! } : {}),
      used: text(s.data?.used) === 'true',
      ...(text(s.data?.usedAt) ? { usedAt: text(s.data?.usedAt)! } : {}),
    }));
  }

  async delete(name: string): Promise<void> {
    await this.client.request('DELETE', secretPath(this.namespace, name)).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}
