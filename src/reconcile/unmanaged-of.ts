import pLimit from 'p-limit';
import { ApiError } from '../cluster/api-error.js';
import { listAll } from '../cluster/list.js';
import { errorMessage } from '../core/errors.js';
import { idOf, type ObjectId } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import {
  findUnmanaged,
  kindName,
  unmanagedScope,
  type UnmanagedList,
  type UnmanagedReport,
  type UnreadList,
} from '../plan/unmanaged.js';
import type { UnmanagedConfig } from '../project/unmanaged-config.js';
import type { ClusterSession } from './cluster-session.js';
import type { Observed } from './observe-and-plan.js';

/**
 * The unmanaged-objects report of an observed plan, or undefined when `config` does not ask for
 * one. Kinds and namespaces the observation already listed (the platform has objects of that kind
 * there) are read from it; the others `config` names are listed here, one LIST per kind and
 * namespace. A list that fails (forbidden, a kind not served, a cluster-scoped kind) is named in
 * `unread`, never thrown, and never counts as a failed list of the plan: this report prunes
 * nothing and blocks nothing.
 */
export async function unmanagedOf(
  session: ClusterSession,
  observed: Observed,
  config: UnmanagedConfig,
): Promise<UnmanagedReport | undefined> {
  if (!config.report) return undefined;
  const scope = unmanagedScope(observed.plan, config);
  const covered = new Set(observed.plan.items.map((i) => pairKey(i.ref)));
  const unread: UnreadList[] = observed.observed.failedLists
    .filter((f) => scope.some((s) => s.namespace === f.namespace && s.kind === f.kind))
    .map((f) => ({ kind: f.kind, namespace: f.namespace, reason: `not listed: ${f.message}` }));
  const listed = new Map<ObjectId, K8sObject>(observed.observed.listed);
  const limit = pLimit(8);
  await Promise.all(
    scope
      .filter((s) => !covered.has(pairKey(s)))
      .map((s) => limit(() => listInto(session, s, listed, unread))),
  );
  return findUnmanaged(observed.plan, listed, scope, config, unread);
}

function pairKey(s: { group: string; kind: string; namespace: string }): string {
  return `${s.namespace}|${s.group}|${s.kind}`;
}

async function listInto(
  session: ClusterSession,
  s: UnmanagedList,
  into: Map<ObjectId, K8sObject>,
  unread: UnreadList[],
): Promise<void> {
  const kind = kindName(s.group, s.kind);
  try {
    const info = await session.discovery.resolveGroupKind(s.group, s.kind);
    if (!info)
      return void unread.push({ kind, namespace: s.namespace, reason: 'not served by this cluster' });
    if (!info.namespaced)
      return void unread.push({ kind, namespace: s.namespace, reason: 'cluster-scoped: not reported' });
    for (const obj of await listAll(session.client, info, s.namespace)) into.set(idOf(obj), obj);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return; // the namespace does not exist: nothing in it
    unread.push({ kind, namespace: s.namespace, reason: `not listed: ${errorMessage(err)}` });
  }
}
