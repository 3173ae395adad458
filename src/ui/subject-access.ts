import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KubeClient } from '../cluster/client.js';
import { accessKey, type AccessAttributes, type ReaderAccess } from './access-attributes.js';
import type { AccessCache } from './access-cache.js';
import { decideAccess, type DecideAccessOptions } from './decide-access.js';

/** A user as the apiserver's TokenReview named them: what a SubjectAccessReview asks about. */
export interface ReviewedUser {
  username: string;
  uid?: string;
  groups?: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

const accessReviewSchema = z.looseObject({
  status: z.looseObject({ allowed: z.boolean().optional() }).optional(),
});

/**
 * One SubjectAccessReview: whether the apiserver would let `user` do `a`. Throws when the review
 * cannot be made (then nothing is known). `noRetry`: one try (a page waits on it).
 */
export async function subjectAccessReview(
  client: KubeClient,
  user: ReviewedUser,
  a: AccessAttributes,
  opts: { noRetry?: boolean } = {},
): Promise<boolean> {
  const sar = await client.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: user.username,
        ...(user.uid ? { uid: user.uid } : {}),
        ...(user.groups ? { groups: user.groups } : {}),
        ...(user.extra ? { extra: user.extra } : {}),
        resourceAttributes: {
          verb: a.verb,
          group: a.group,
          resource: a.resource,
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.name !== undefined ? { name: a.name } : {}),
        },
      },
    },
    schema: accessReviewSchema,
    ...(opts.noRetry ? { noRetry: true } : {}),
  });
  return sar.status?.allowed === true;
}

/**
 * What `user` may see, asked of the apiserver with SubjectAccessReviews (the agent's
 * `system:auth-delegator` binding allows it), as the apiserver would authorize the user's own
 * request: its RBAC and any other authorizer it runs. Batched by `decideAccess`, answers kept in
 * `cache` under the user's whole identity (name, uid, groups, extra: two tokens of one user share
 * them). A review that fails denies and is not kept.
 */
export function subjectAccess(opts: {
  client: KubeClient;
  user: ReviewedUser;
  cache: AccessCache;
  decide?: DecideAccessOptions;
}): ReaderAccess {
  const { user } = opts;
  const who = createHash('sha256')
    .update(
      JSON.stringify([
        user.username,
        user.uid ?? '',
        [...(user.groups ?? [])].sort(),
        Object.entries(user.extra ?? {}).sort(([a], [b]) => a.localeCompare(b)),
      ]),
    )
    .digest('hex');
  const review = (a: AccessAttributes) =>
    // A page waits on it: one try, a failure hides what it covers (said on the page).
    opts.cache.get(`${who}\n${accessKey(a)}`, () =>
      subjectAccessReview(opts.client, user, a, { noRetry: true }),
    );
  const known = (a: AccessAttributes) => opts.cache.peek(`${who}\n${accessKey(a)}`);
  return { decide: (needs) => decideAccess(needs, review, { ...opts.decide, known }) };
}
