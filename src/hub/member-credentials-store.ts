import { z } from 'zod';
import { ApiError, isNotFound } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { MEMBER_NAME } from './hub-names.js';

/** The Secret, in the agent's namespace on its own cluster, that holds its hub credentials. */
export const HUB_CREDENTIALS_SECRET = 'groundwork-hub-credentials';

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
    try {
      const secret = await this.client.request('GET', this.path(HUB_CREDENTIALS_SECRET), {
        schema: secretSchema,
      });
      const data = Object.fromEntries(
        Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      const parsed = stateSchema.safeParse(data);
      return parsed.success ? parsed.data : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Replaces the state (creating the Secret the first time). */
  async write(state: MemberState): Promise<void> {
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: HUB_CREDENTIALS_SECRET,
        namespace: this.namespace,
        labels: { 'app.kubernetes.io/part-of': 'groundwork', 'app.kubernetes.io/component': 'hub-member' },
      },
      type: 'Opaque',
      stringData: Object.fromEntries(Object.entries(state).filter(([, v]) => v !== undefined)),
    };
    try {
      await this.client.request('PUT', this.path(HUB_CREDENTIALS_SECRET), { body });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      await this.client.request('POST', this.path(), { body, noRetry: true });
    }
  }
}
