import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { PLATFORM_SYNC_API_VERSION } from '../cluster/sync-status-store.js';
import { AccessCache } from './access-cache.js';
import type { AuthOutcome, DashboardAuth } from './dashboard-handler.js';
import { subjectAccess, subjectAccessReview } from './subject-access.js';

const tokenReviewSchema = z.looseObject({
  status: z
    .looseObject({
      authenticated: z.boolean().optional(),
      error: z.string().optional(),
      user: z
        .looseObject({
          username: z.string().optional(),
          uid: z.string().optional(),
          groups: z.array(z.string()).optional(),
          extra: z.record(z.string(), z.array(z.string())).optional(),
        })
        .optional(),
    })
    .optional(),
});

export interface ReviewAuthOptions {
  client: KubeClient;
  /** Namespace of the PlatformSync a reader must be allowed to `get`. */
  namespace: string;
  /** Its name (the agent knows it once it has read groundwork.yaml); undefined: any in the namespace. */
  name: () => string | undefined;
  /** How long an answer is reused for the same token, and a permission answer for the same user. @default 30000 */
  cacheMs?: number;
  /** Reviews one page load may ask at most (`decideAccess`). @default 200 */
  maxReviewsPerRequest?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * The agent's check: a bearer token (`Authorization: Bearer …`, or `X-Forwarded-Access-Token` as
 * OpenShift's oauth-proxy passes it with `--pass-access-token`) that the apiserver accepts
 * (TokenReview) for a user allowed to `get` the PlatformSync (SubjectAccessReview), as
 * kube-rbac-proxy does. Answers are kept `cacheMs` per token (by its SHA-256, never the token), at
 * most 1,000; a review that fails (the apiserver down) refuses and is not kept. Requests without a
 * token get 401, refused ones 403. An accepted reader carries its identity (`user:<uid>`, for
 * per-reader limits) and `subjectAccess` over one `AccessCache` for all readers (`cacheMs`, at most
 * 20,000 answers), so each page shows only what that user may `get` or `list`. The agent needs
 * `create` on tokenreviews and subjectaccessreviews (`system:auth-delegator`).
 */
export function reviewAuth(opts: ReviewAuthOptions): DashboardAuth {
  const cache = new Map<string, { until: number; outcome: AuthOutcome }>();
  const now = opts.now ?? Date.now;
  const access = new AccessCache({ ttlMs: opts.cacheMs ?? 30_000, now });
  return {
    async check(req: IncomingMessage): Promise<AuthOutcome> {
      const token = bearerOf(req);
      if (!token) return { ok: false, status: 401, reason: 'a bearer token is required' };
      const key = createHash('sha256')
        .update(token)
        .update('\0')
        .update(opts.name() ?? '')
        .digest('hex');
      const hit = cache.get(key);
      if (hit && hit.until > now()) return hit.outcome;
      let outcome: AuthOutcome;
      try {
        outcome = await review(opts, token, access);
      } catch {
        return { ok: false, status: 503, reason: 'cannot review the token now (apiserver unreachable)' };
      }
      if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
      cache.set(key, { until: now() + (opts.cacheMs ?? 30_000), outcome });
      return outcome;
    },
  };
}

function bearerOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const forwarded = req.headers['x-forwarded-access-token'];
  return auth ?? (typeof forwarded === 'string' && forwarded ? forwarded : undefined);
}

async function review(opts: ReviewAuthOptions, token: string, access: AccessCache): Promise<AuthOutcome> {
  const tr = await opts.client.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    schema: tokenReviewSchema,
  });
  const user = tr.status?.user;
  if (!tr.status?.authenticated || !user?.username)
    return { ok: false, status: 403, reason: 'the apiserver does not accept this token' };
  const reviewed = {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups ? { groups: user.groups } : {}),
    ...(user.extra ? { extra: user.extra } : {}),
  };
  const name = opts.name();
  const allowed = await subjectAccessReview(opts.client, reviewed, {
    verb: 'get',
    group: PLATFORM_SYNC_API_VERSION.split('/')[0]!,
    resource: 'platformsyncs',
    namespace: opts.namespace,
    ...(name ? { name } : {}),
  });
  return allowed
    ? {
        ok: true,
        user: user.username,
        reader: {
          key: `user:${JSON.stringify([user.username, user.uid ?? ''])}`,
          access: subjectAccess({
            client: opts.client,
            user: reviewed,
            cache: access,
            decide: { maxReviews: opts.maxReviewsPerRequest ?? 200 },
          }),
        },
      }
    : { ok: false, status: 403, reason: `${user.username} may not get platformsyncs in ${opts.namespace}` };
}
