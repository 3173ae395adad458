import { z } from 'zod';
import { ApiError } from '../cluster/api-error.js';
import type { KubeClient } from '../cluster/client.js';
import { microTime } from '../cluster/lease-store.js';
import {
  HUB_API_VERSION,
  HUB_PATHS,
  LABELS,
  MEMBER_LEASE,
  MEMBER_SERVICE_ACCOUNT,
  memberNamespace,
} from './hub-names.js';
import { memberRoleBinding } from './hub-rbac.js';
import { DEFAULT_LEASE_SECONDS } from './member-schema.js';

/** What the hub gives a member when it registers: labels and environment from its token. */
export interface MemberGrant {
  readonly member: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly environment?: string;
  readonly leaseDurationSeconds?: number;
}

/** Creates `body` at `path`; an object that exists already is left as it is. */
async function ensure(client: KubeClient, path: string, body: unknown): Promise<void> {
  try {
    await client.request('POST', path, { body, noRetry: true });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
  }
}

/**
 * Sets member `grant.member` up on the hub, idempotently (a member registering again keeps its
 * FleetMember, history and spec): its namespace `member-<name>`, its ServiceAccount `member`, the
 * RoleBinding to the member ClusterRole, its heartbeat Lease (created here: the member may only
 * renew it), and its FleetMember, whose labels and environment come from the token (merged into an
 * existing one). The hub's labels go on the namespace and Lease too.
 */
export async function setUpMember(client: KubeClient, grant: MemberGrant): Promise<void> {
  const namespace = memberNamespace(grant.member);
  const own = { [LABELS.member]: grant.member, 'app.kubernetes.io/part-of': 'groundwork-hub' };
  await ensure(client, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels: own },
  });
  await ensure(client, `/api/v1/namespaces/${namespace}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: MEMBER_SERVICE_ACCOUNT, namespace, labels: own },
  });
  await ensure(
    client,
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`,
    memberRoleBinding(namespace),
  );
  const leaseSeconds = grant.leaseDurationSeconds ?? DEFAULT_LEASE_SECONDS;
  await ensure(client, `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: MEMBER_LEASE, namespace, labels: own },
    spec: {
      holderIdentity: grant.member,
      leaseDurationSeconds: leaseSeconds,
      acquireTime: microTime(new Date()),
    },
  });
  const labels = {
    ...grant.labels,
    ...own,
    ...(grant.environment ? { [LABELS.environment]: grant.environment } : {}),
  };
  const spec = {
    ...(grant.environment ? { environment: grant.environment } : {}),
    leaseDurationSeconds: leaseSeconds,
  };
  try {
    await client.request('POST', `/apis/${HUB_API_VERSION}/namespaces/${namespace}/fleetmembers`, {
      body: {
        apiVersion: HUB_API_VERSION,
        kind: 'FleetMember',
        metadata: { name: grant.member, namespace, labels },
        spec,
      },
      noRetry: true,
    });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err;
    // Registered before: the token's labels and environment are merged in, the release kept.
    await client.request('PATCH', HUB_PATHS.fleetMember(grant.member), {
      body: { metadata: { labels }, spec },
      contentType: 'application/merge-patch+json',
    });
  }
}

const tokenRequestSchema = z.looseObject({
  status: z.looseObject({ token: z.string().min(1), expirationTimestamp: z.string() }),
});

/**
 * A token of ServiceAccount `serviceAccount` in `namespace` from the TokenRequest API, valid
 * `seconds` (the apiserver may shorten it: the returned expiry is the truth; it refuses less than
 * 10 minutes).
 */
export async function requestToken(
  client: KubeClient,
  target: { namespace: string; serviceAccount: string; seconds: number },
): Promise<{ token: string; expiresAt: string }> {
  const answer = await client.request(
    'POST',
    `/api/v1/namespaces/${target.namespace}/serviceaccounts/${target.serviceAccount}/token`,
    {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: Math.max(600, Math.round(target.seconds)) },
      },
      noRetry: true,
      schema: tokenRequestSchema,
    },
  );
  return { token: answer.status.token, expiresAt: answer.status.expirationTimestamp };
}

/**
 * A token of member `member`'s ServiceAccount (`requestToken`): with the controller's rights at
 * registration, with the member's own when it renews.
 */
export function requestMemberToken(
  client: KubeClient,
  member: string,
  seconds: number,
): Promise<{ token: string; expiresAt: string }> {
  return requestToken(client, {
    namespace: memberNamespace(member),
    serviceAccount: MEMBER_SERVICE_ACCOUNT,
    seconds,
  });
}
