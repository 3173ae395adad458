import { GroundworkError } from '../core/errors.js';
import { describeRef, refOf } from '../core/object-id.js';
import { isPlainObject, splitApiVersion, type K8sObject } from '../core/object.js';

/** The agent a platform is applied by, and what of its namespace is its own. */
export interface AgentHome {
  /** The agent's namespace, e.g. `groundwork-system`: it holds the agent's token and Secrets. */
  namespace: string;
  /**
   * `all`: refuse every object in the namespace (bootstrap, whose RBAC grants the platform nothing
   * there). `workloads` (the agent, every revision): refuse what can act as the agent or reach
   * its credentials (`AGENT_NAMESPACE_KINDS`) and the objects it reads by name (`reserved`).
   */
  scope: 'all' | 'workloads';
  /** Secrets and ConfigMaps the agent reads in its namespace (credentials, keys, notifications). @default [] */
  reserved?: readonly { kind: 'Secret' | 'ConfigMap'; name: string }[];
}

/** One object the agent must not apply, and why. */
export interface AgentNamespaceProblem {
  /** `Kind/namespace/name`. */
  object: string;
  /** Construct path that emits it. */
  source: string;
  why: string;
}

const RBAC = 'rbac.authorization.k8s.io';
const MAX_NAMED = 5;

/**
 * Kinds (`group/Kind`) the platform never declares in the agent's namespace: what runs a pod there
 * (which may name the agent's ServiceAccount and so get its token), grants there, mints a token,
 * leads in the agent's place, changes the agent's own PlatformSync, opens its network or exposes it,
 * or starves it of resources.
 */
export const AGENT_NAMESPACE_KINDS: ReadonlySet<string> = new Set([
  '/Pod',
  '/PodTemplate',
  '/ReplicationController',
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
  '/ServiceAccount',
  `${RBAC}/Role`,
  `${RBAC}/RoleBinding`,
  'coordination.k8s.io/Lease',
  'groundwork.io/PlatformSync',
  'networking.k8s.io/NetworkPolicy',
  'networking.k8s.io/Ingress',
  'route.openshift.io/Route',
  '/Service',
  '/Endpoints',
  'discovery.k8s.io/EndpointSlice',
  '/ResourceQuota',
  '/LimitRange',
]);

/**
 * What of a platform would let a merged commit act as the agent (issue 31, item 9). Pure:
 * - in the agent's namespace, every object (`scope: 'all'`), or (`'workloads'`) the kinds of
 *   `AGENT_NAMESPACE_KINDS`, a ServiceAccount token Secret, and the Secrets and ConfigMaps in
 *   `reserved`;
 * - the agent's Namespace itself (the platform would own it; a prune would delete the agent);
 * - a RoleBinding or ClusterRoleBinding anywhere whose subject is a ServiceAccount of the agent's
 *   namespace, its `system:serviceaccount:<ns>:<name>` user, or the group
 *   `system:serviceaccounts:<ns>` or `system:serviceaccounts` (every ServiceAccount).
 * Returns them in the order given; empty when the platform may be applied.
 */
export function agentNamespaceProblems(
  manifests: readonly { object: K8sObject; source: string }[],
  agent: AgentHome,
): AgentNamespaceProblem[] {
  const out: AgentNamespaceProblem[] = [];
  for (const { object, source } of manifests) {
    const why = problemOf(object, agent);
    if (why) out.push({ object: describeRef(refOf(object)), source, why });
  }
  return out;
}

function problemOf(o: K8sObject, agent: AgentHome): string | undefined {
  const ns = agent.namespace;
  const group = splitApiVersion(o.apiVersion).group;
  if (o.metadata.namespace === ns) {
    const inside = `it is in the agent's namespace ${ns}, which holds the agent's token and Secrets`;
    if (agent.scope === 'all') return inside;
    if (AGENT_NAMESPACE_KINDS.has(`${group}/${o.kind}`))
      return `${inside}: a ${o.kind} there could act as the agent, reach its credentials or expose it`;
    if (group === '' && o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token')
      return `${inside}: a ServiceAccount token Secret there mints a token`;
    if (group === '' && agent.reserved?.some((r) => r.kind === o.kind && r.name === o.metadata.name))
      return `${inside}: the agent reads this ${o.kind} (credentials, keys or notification settings)`;
  }
  if (group === '' && o.kind === 'Namespace' && o.metadata.name === ns)
    return `it is the agent's namespace: the platform would own it, and a prune would delete the agent`;
  if (group === RBAC && (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
    const subjects = Array.isArray(o.subjects) ? o.subjects : [];
    for (const s of subjects) {
      if (!isPlainObject(s)) continue;
      const name = typeof s.name === 'string' ? s.name : '';
      if (
        (s.kind === 'ServiceAccount' && s.namespace === ns) ||
        (s.kind === 'User' && name.startsWith(`system:serviceaccount:${ns}:`)) ||
        (s.kind === 'Group' && (name === `system:serviceaccounts:${ns}` || name === 'system:serviceaccounts'))
      )
        return `it binds a role to ${String(s.kind)} ${JSON.stringify(name)}${s.kind === 'ServiceAccount' ? ` of ${ns}` : ''}, which is (or includes) the agent's ServiceAccount`;
    }
  }
  return undefined;
}

/**
 * Throws AgentNamespaceRefused when `agentNamespaceProblems` finds any, naming the first few objects
 * with their construct paths, so nothing of the revision is planned, applied or pruned. Pure.
 */
export function refuseAgentNamespaceObjects(
  manifests: readonly { object: K8sObject; source: string }[],
  agent: AgentHome,
): void {
  const problems = agentNamespaceProblems(manifests, agent);
  if (!problems.length) return;
  const named = problems.slice(0, MAX_NAMED).map((p) => `${p.object} (${p.source}): ${p.why}`);
  const more = problems.length > MAX_NAMED ? `; and ${problems.length - MAX_NAMED} more` : '';
  throw new GroundworkError({
    code: 'AgentNamespaceRefused',
    subject: problems[0]!.object,
    message: `the platform declares ${problems.length} object(s) the agent must not apply: ${named.join('; ')}${more}`,
    fix: `move these objects out of ${agent.namespace} into a namespace of your own, and bind roles to your own ServiceAccounts, never to the agent's`,
  });
}
