import { z } from 'zod';
import type { KubeClient } from './client.js';
import type { ResourceInfo } from './discovery.js';

/** A SelfSubjectAccessReview's answer, as far as it is read. */
const reviewSchema = z.looseObject({
  status: z.looseObject({ allowed: z.boolean().optional() }).optional(),
});

/** Where to list and watch a kind: `undefined` is every namespace (or a cluster-scoped kind). */
export type ListScope = string | undefined;

/**
 * Decides where the agent lists and watches each kind it manages. Cluster-scoped kinds, and
 * namespaced kinds its credentials may list and watch in every namespace, are read cluster-wide:
 * one LIST and one watch per kind. Otherwise (the least-privilege RBAC of `groundwork bootstrap`
 * grants a namespaced kind only in the namespaces the platform uses) it reads the kind in each of
 * those namespaces, one watch each. The question is asked once per kind and credentials, with
 * SelfSubjectAccessReviews (allowed to every authenticated user); a review that fails counts as
 * "not cluster-wide", which is always safe. It never reads an object.
 */
export class WatchScope {
  private readonly answers = new Map<string, Promise<boolean>>();

  constructor(private readonly client: KubeClient) {}

  /** `[undefined]` when the kind is read cluster-wide, else the given namespaces, sorted and once each. */
  async of(info: ResourceInfo, namespaces: Iterable<string>): Promise<ListScope[]> {
    if (!info.namespaced || (await this.clusterWide(info))) return [undefined];
    return [...new Set(namespaces)].filter((ns) => ns !== '').sort();
  }

  /** Whether these credentials may list and watch the kind in every namespace. */
  clusterWide(info: ResourceInfo): Promise<boolean> {
    const key = `${info.group}/${info.resource}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = Promise.all([this.allowed(info, 'list'), this.allowed(info, 'watch')]).then(
        ([list, watch]) => list && watch,
        () => {
          this.answers.delete(key); // asked again next time
          return false;
        },
      );
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async allowed(info: ResourceInfo, verb: string): Promise<boolean> {
    const review = await this.client.request(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb, group: info.group, resource: info.resource } },
        },
        schema: reviewSchema,
      },
    );
    return review.status?.allowed === true;
  }
}
