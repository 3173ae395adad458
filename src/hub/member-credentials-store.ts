import { z } from 'zod';
import { ApiError, isNotFound } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { MEMBER_NAME } from './hub-names.js';
import { memberReleaseSchema, type MemberRelease } from './member-schema.js';

/** The Secret, in the agent's namespace on its own cluster, that holds its hub credentials. */
export const HUB_CREDENTIALS_SECRET = 'groundwork-hub-credentials';
/** Its key holding the last release the agent took up (JSON), kept apart from the credentials. */
const RELEASE_KEY = 'release';
/** Its key saying the hub has released to this member before (`'true'`). */
const GATED_KEY = 'gated';

/**
 * What the agent keeps about the hub: a registration in flight (the key it generated, the
 * registration's name) or the member's credentials (its token and when it expires). The hub's
 * address and CA come with both. Never logged.
 */
export type MemberState =
  | {
      readonly phase: 'pending';
      readonly member: string;
      readonly server: string;
      readonly caData?: string;
      readonly registration: string;
      readonly identity: string;
    }
  | {
      readonly phase: 'registered';
      readonly member: string;
      readonly namespace: string;
      readonly server: string;
      readonly caData?: string;
      readonly token: string;
      readonly issuedAt: string;
      readonly expiresAt: string;
    };

const common = {
  member: z.string().regex(MEMBER_NAME),
  server: z.string().url(),
  caData: z.string().optional(),
};
const stateSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('pending'), ...common, registration: z.string(), identity: z.string() }),
  z.object({
    phase: z.literal('registered'),
    ...common,
    namespace: z.string(),
    token: z.string(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
]);

const secretSchema = z.looseObject({
  metadata: z.looseObject({ resourceVersion: z.string().optional() }),
  data: z.record(z.string(), z.string()).nullish(),
});

/**
 * The agent's hub state in Secret `groundwork-hub-credentials` of its namespace, on its own cluster
 * (the agent's own RBAC; nothing of it goes to the hub). A Secret that does not parse reads as
 * none: the agent registers again.
 */
export class MemberCredentialsStore {
  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
  ) {}

  private path(name?: string): string {
    return `/api/v1/namespaces/${this.namespace}/secrets${name ? `/${name}` : ''}`;
  }

  async read(): Promise<MemberState | undefined> {
    const data = await this.readData();
    const parsed = data && stateSchema.safeParse(data);
    return parsed?.success ? parsed.data : undefined;
  }

  /**
   * The last release the agent took up (`writeRelease`; none when what is kept does not read) and
   * whether the hub has released to this member before (`markGated`, or a kept release).
   */
  async readKept(): Promise<{ release?: MemberRelease; gated: boolean }> {
    const data = await this.readData();
    const text = data?.[RELEASE_KEY];
    let release: MemberRelease | undefined;
    try {
      const parsed = text === undefined ? undefined : memberReleaseSchema.safeParse(JSON.parse(text));
      release = parsed?.success ? parsed.data : undefined;
    } catch {
      release = undefined;
    }
    return { ...(release ? { release } : {}), gated: data?.[GATED_KEY] === 'true' || text !== undefined };
  }

  /** Keeps `release` beside the credentials (the Secret must exist: the agent registered). */
  writeRelease(release: MemberRelease): Promise<void> {
    return this.writeKeys({
      [RELEASE_KEY]: JSON.stringify(memberReleaseSchema.parse(release)),
      [GATED_KEY]: 'true',
    });
  }

  /** Keeps that the hub has released to this member (the Secret must exist). */
  markGated(): Promise<void> {
    return this.writeKeys({ [GATED_KEY]: 'true' });
  }

  private async writeKeys(keys: Record<string, string>): Promise<void> {
    const secret = await this.client.request('GET', this.path(HUB_CREDENTIALS_SECRET), {
      schema: secretSchema,
    });
    const encoded = Object.fromEntries(
      Object.entries(keys).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    );
    await this.client.request('PUT', this.path(HUB_CREDENTIALS_SECRET), {
      body: { ...secret, data: { ...(secret.data ?? {}), ...encoded } },
    });
  }

  /** The Secret's data, decoded; undefined when there is no Secret. */
  private async readData(): Promise<Record<string, string> | undefined> {
    try {
      const secret = await this.client.request('GET', this.path(HUB_CREDENTIALS_SECRET), {
        schema: secretSchema,
      });
      return Object.fromEntries(
        Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Replaces the state (creating the Secret the first time); what is kept of releases stays. */
  async write(state: MemberState): Promise<void> {
    const kept = await this.readData().then((d) => ({
      ...(d?.[RELEASE_KEY] !== undefined ? { [RELEASE_KEY]: d[RELEASE_KEY] } : {}),
      ...(d?.[GATED_KEY] !== undefined ? { [GATED_KEY]: d[GATED_KEY] } : {}),
    }));
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: HUB_CREDENTIALS_SECRET,
        namespace: this.namespace,
        labels: { 'app.kubernetes.io/part-of': 'groundwork', 'app.kubernetes.io/component': 'hub-member' },
      },
      type: 'Opaque',
      stringData: {
        ...Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined)),
        ...kept,
      },
    };
    try {
      await this.client.request('PUT', this.path(HUB_CREDENTIALS_SECRET), { body });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      await this.client.request('POST', this.path(), { body, noRetry: true });
    }
  }
}
