/**
 * What a reader asks the apiserver's authorizer about, as a SubjectAccessReview's
 * `resourceAttributes`: a verb on a resource of a group, in a namespace (`''`: every namespace, or a
 * cluster-scoped resource), optionally one object by name. The dashboard asks `get` for an object
 * and `list` for Events and the OpenShift page's lists. `group: '*'` with `resource: '*'` stands for
 * an object whose resource is not known (its kind not served): only a reader allowed everything
 * there may see it.
 */
export interface AccessAttributes {
  readonly verb: 'get' | 'list';
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name?: string;
}

/** One key per distinct attributes (for maps and caches). */
export function accessKey(a: AccessAttributes): string {
  return `${a.verb}|${a.group}|${a.resource}|${a.namespace}|${a.name ?? ''}`;
}

/** The answers for a page's needs; anything not asked is denied. */
export interface AccessDecisions {
  allowed(a: AccessAttributes): boolean;
  /** Needs left unanswered (a review failed, or the per-request budget ran out): denied. */
  readonly unchecked: number;
}

/**
 * What one reader may see: answers a page's needs at once, batched (`decideAccess`); never throws
 * (a review that fails denies, and counts as unchecked).
 */
export interface ReaderAccess {
  decide(needs: readonly AccessAttributes[]): Promise<AccessDecisions>;
}

/** The plural resource of a group and kind, and whether it is namespaced; undefined when not served. */
export type ResourceOf = (
  group: string,
  kind: string,
) => { readonly resource: string; readonly namespaced: boolean } | undefined;
