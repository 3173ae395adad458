import { accessKey, type AccessAttributes, type AccessDecisions } from './access-attributes.js';

export interface DecideAccessOptions {
  /** Reviews asked at most for one call; needs past it are denied and counted unchecked. @default 200 */
  maxReviews?: number;
  /** Reviews in flight at once. @default 8 */
  concurrency?: number;
  /**
   * An answer already known (the caller's cache), used without a review and outside the budget, so
   * that a page too large for one request's budget is checked further on each reload. @default none
   */
  known?: (a: AccessAttributes) => boolean | undefined;
}

/**
 * Answers `needs` with as few reviews as the answers allow, as the apiserver's authorizer would
 * answer each need alone:
 * 1. per verb, group and resource, once for every namespace (`namespace: ''`) when the needs span
 *    more than one namespace or a cluster-scoped one: a reader allowed cluster-wide costs one
 *    review per resource, whatever the number of objects and namespaces;
 * 2. then, where that was denied, once per namespace;
 * 3. a need naming an object (`name`) is asked by name only when its namespace was denied (RBAC
 *    rules with `resourceNames`).
 * So a page of 5,000 objects costs at most (resources) + (resources × namespaces) reviews, and never
 * more than `maxReviews` (answers `known` do not count): needs past the budget are denied and counted
 * in `unchecked`, as are needs whose review threw. `review` is the caller's (cached, coalesced); this
 * function does no I/O itself.
 */
export async function decideAccess(
  needs: readonly AccessAttributes[],
  review: (a: AccessAttributes) => Promise<boolean>,
  opts: DecideAccessOptions = {},
): Promise<AccessDecisions> {
  const budget = { left: opts.maxReviews ?? 200, unchecked: 0 };
  const answers = new Map<string, boolean>();
  const ask = async (batch: readonly AccessAttributes[]) => {
    const todo: AccessAttributes[] = [];
    for (const a of batch) {
      if (answers.has(accessKey(a))) continue;
      const known = opts.known?.(a);
      if (known === undefined) todo.push(a);
      else answers.set(accessKey(a), known);
    }
    const allowedNow = todo.slice(0, Math.max(0, budget.left));
    budget.left -= allowedNow.length;
    for (const a of todo.slice(allowedNow.length)) {
      answers.set(accessKey(a), false);
      budget.unchecked++;
    }
    await inBatches(allowedNow, opts.concurrency ?? 8, async (a) => {
      let ok = false;
      try {
        ok = await review(a);
      } catch {
        budget.unchecked++;
      }
      answers.set(accessKey(a), ok);
    });
  };

  const unique = [...new Map(needs.map((a) => [accessKey(a), a])).values()];
  const byResource = new Map<string, AccessAttributes[]>();
  for (const a of unique) {
    const k = `${a.verb}|${a.group}|${a.resource}`;
    byResource.set(k, [...(byResource.get(k) ?? []), a]);
  }
  // 1. Every namespace at once, where more than one namespace (or a cluster-scoped object) is asked.
  const wide = (a: AccessAttributes): AccessAttributes => ({
    verb: a.verb,
    group: a.group,
    resource: a.resource,
    namespace: '',
  });
  const clusterWide = [...byResource.values()]
    .filter((as) => new Set(as.map((a) => a.namespace)).size > 1 || as.some((a) => a.namespace === ''))
    .map((as) => wide(as[0]!));
  await ask(clusterWide);
  const wideAllowed = (a: AccessAttributes) => answers.get(accessKey(wide(a))) === true;
  // 2. One namespace at a time where every namespace was denied (or not asked).
  const base = (a: AccessAttributes): AccessAttributes => ({ ...wide(a), namespace: a.namespace });
  await ask(uniqueBy(unique.filter((a) => a.namespace !== '' && !wideAllowed(a)).map(base), accessKey));
  const baseAllowed = (a: AccessAttributes) => wideAllowed(a) || answers.get(accessKey(base(a))) === true;
  // 3. By name, where its namespace was denied.
  await ask(unique.filter((a) => a.name !== undefined && !baseAllowed(a)));

  return {
    allowed: (a) => baseAllowed(a) || (a.name !== undefined && answers.get(accessKey(a)) === true),
    unchecked: budget.unchecked,
  };
}

function uniqueBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  return [...new Map(items.map((t) => [key(t), t])).values()];
}

async function inBatches<T>(items: readonly T[], size: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
