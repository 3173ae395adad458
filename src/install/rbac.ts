import type { ResourceInfo } from '../cluster/discovery.js';
import { parseId, type ObjectId } from '../core/object-id.js';
import { splitApiVersion, type K8sObject } from '../core/object.js';
import { guessPlural, READ, RuleSet, WRITE, type PolicyRule } from './rbac-rules.js';
import { REDACTION_KEY_SECRET } from '../agent/redaction-key-secret.js';
import { HUB_CREDENTIALS_SECRET } from '../hub/member-credentials-store.js';
import { hubSourceOf } from '../hub/hub-source.js';
import { GroundworkError } from '../core/errors.js';

/** An object the agent manages, or must still prune, as RBAC sees it. */
export interface ManagedRef {
  group: string;
  /** Plural resource name, e.g. `configmaps`. */
  resource: string;
  kind: string;
  /** The object's namespace; '' for a cluster-scoped object. */
  namespace: string;
  name: string;
}

/** The agent's RBAC: one ClusterRole, and one Role in each namespace it works in. */
export interface AgentRbac {
  cluster: PolicyRule[];
  /** Sorted by namespace; every entry has at least one rule. */
  namespaced: { namespace: string; rules: PolicyRule[] }[];
}

export interface AgentRbacInput {
  /** What the platform declares and what its inventory still holds (the agent prunes those). */
  objects: readonly ManagedRef[];
  /** The agent's namespace: its Lease and PlatformSync. */
  namespace: string;
  /** The platform's inventory ConfigMap (src/apply/inventory.ts). */
  inventory: { namespace: string; name: string };
  /**
   * Secrets in the agent's namespace it reads by name for notifications (the alert Secret of its
   * environment in groundwork.yaml, the forge token's): `get` on those names only.
   */
  notificationSecrets?: readonly string[];
  /** The trusted keys of `--verify-commits` in the agent's namespace: `get` on that name only. */
  trustedKeys?: { readonly kind: 'Secret' | 'ConfigMap'; readonly name: string };
  /** The age identities of `--decryption-secret` (SopsSecret) in the agent's namespace: `get` on that name only. */
  decryptionSecret?: string;
  /** The git credentials Secret the agent reads itself (`--credentials-secret`: an SSH deploy key): `get` on that name only. */
  credentialsSecret?: string;
}

const OLM = 'operators.coreos.com';
const MCO = 'machineconfiguration.openshift.io';
const EVENTS: [string, string, readonly string[]] = ['events.k8s.io', 'events', ['create', 'patch']];

/**
 * Least-privilege RBAC for the agent of one platform, from the objects it manages. Pure.
 *
 * - Namespaced kinds: read and write (`get list watch create patch update delete`) in each
 *   namespace holding objects of the kind, through a Role there, plus Events (drift is recorded on
 *   the drifted object). Never cluster-wide: the agent then lists and watches per namespace
 *   (src/cluster/watch-scope.ts).
 * - Cluster-scoped kinds: read cluster-wide; writes only on the objects' names (`resourceNames`).
 *   Events about them go to `default`.
 * - What the domain hooks read and write, only when the platform has their kinds: InstallPlan
 *   approval and CSV reads in the namespaces of Subscriptions; ClusterOperators and pool pauses with
 *   a ClusterVersion; pool pauses with MachineConfigs. A CustomResourceDefinition adds a cluster-wide
 *   read of its custom resources (the prune guard keeps a CRD while objects of its kind exist).
 * - The agent's own: Lease, PlatformSync and its redaction-key Secret in its namespace, its
 *   inventory ConfigMap by name.
 *
 * It grants nothing for kinds or namespaces the platform does not have: when the platform gains
 * one, the agent reports Forbidden until `groundwork bootstrap` runs again.
 */
export function agentRbac(input: AgentRbacInput): AgentRbac {
  const cluster = new RuleSet();
  const perNamespace = new Map<string, RuleSet>();
  const inNamespace = (ns: string) => perNamespace.get(ns) ?? perNamespace.set(ns, new RuleSet()).get(ns)!;
  const clusterNames = new Map<string, { group: string; resource: string; names: string[] }>();
  for (const o of input.objects) {
    // Never the platform's kinds in the agent's own namespace: a workload there could run as the agent.
    if (o.namespace === input.namespace) continue;
    if (o.namespace) {
      inNamespace(o.namespace)
        .grant(o.group, o.resource, [...READ, ...WRITE])
        .grant(...EVENTS);
    } else {
      const key = `${o.group}/${o.resource}`;
      const entry = clusterNames.get(key) ?? { group: o.group, resource: o.resource, names: [] };
      entry.names.push(o.name);
      clusterNames.set(key, entry);
      inNamespace('default').grant(...EVENTS);
    }
    if (o.group === OLM && o.kind === 'Subscription')
      inNamespace(o.namespace)
        .grant(OLM, 'installplans', [...READ, 'patch'])
        .grant(OLM, 'clusterserviceversions', READ);
    if (o.group === 'config.openshift.io' && o.kind === 'ClusterVersion')
      cluster.grant('config.openshift.io', 'clusteroperators', READ);
    if ((o.group === 'config.openshift.io' && o.kind === 'ClusterVersion') || o.group === MCO)
      cluster.grant(MCO, 'machineconfigpools', [...READ, 'patch']);
    if (o.group === 'apiextensions.k8s.io' && o.kind === 'CustomResourceDefinition') {
      const dot = o.name.indexOf('.'); // a CRD is named <plural>.<group>
      if (dot > 0) cluster.grant(o.name.slice(dot + 1), o.name.slice(0, dot), READ);
    }
  }
  for (const { group, resource, names } of clusterNames.values())
    cluster.grant(group, resource, READ).grant(group, resource, WRITE, names);
  inNamespace(input.namespace)
    // Its redaction key (src/agent/redaction-key-secret.ts): read by name, created when missing
    // (Kubernetes cannot limit `create` by name).
    .grant('', 'secrets', ['get'], [REDACTION_KEY_SECRET])
    .grant('', 'secrets', ['create'])
    .grant('coordination.k8s.io', 'leases', ['get', 'create', 'update'])
    .grant('groundwork.io', 'platformsyncs', [...READ, 'create', 'patch', 'update'])
    .grant('groundwork.io', 'platformsyncs/status', [...READ, 'create', 'patch', 'update']);
  // Never an unnamed grant: no names, no rule (a get on every Secret would reach the git credentials).
  if (input.notificationSecrets?.length)
    inNamespace(input.namespace).grant('', 'secrets', ['get'], input.notificationSecrets);
  if (input.trustedKeys)
    inNamespace(input.namespace).grant(
      '',
      input.trustedKeys.kind === 'Secret' ? 'secrets' : 'configmaps',
      ['get'],
      [input.trustedKeys.name],
    );
  if (input.decryptionSecret)
    inNamespace(input.namespace).grant('', 'secrets', ['get'], [input.decryptionSecret]);
  if (input.credentialsSecret)
    inNamespace(input.namespace).grant('', 'secrets', ['get'], [input.credentialsSecret]);
  inNamespace(input.inventory.namespace).grant(
    '',
    'configmaps',
    ['get', 'create', 'patch', 'update'],
    [input.inventory.name],
  );
  return {
    cluster: cluster.rules(),
    namespaced: [...perNamespace]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([namespace, rules]) => ({ namespace, rules: rules.rules() })),
  };
}

/**
 * `rbac` with what the agent's `--hub` needs in its namespace: `get` and `update` on its hub
 * credentials Secret (`groundwork-hub-credentials`; created with the `create` it has for its
 * redaction key, which Kubernetes cannot limit by name) and `get` on the bootstrap kubeconfig's
 * Secret. In a pod `--hub` must be `secret/<name>` (a file path is `HubBootstrapInvalid`). Pure.
 */
export function withHubRbac(rbac: AgentRbac, namespace: string, hub: string | undefined): AgentRbac {
  if (hub === undefined) return rbac;
  const source = hubSourceOf(hub);
  if (source.kind === 'file')
    throw new GroundworkError({
      code: 'HubBootstrapInvalid',
      subject: '--hub',
      message: 'bootstrap installs an agent in a pod, where a file of this machine does not exist',
      fix: 'put the bootstrap kubeconfig in a Secret of the agent namespace (kubectl create secret generic hub-bootstrap --from-file=kubeconfig=FILE) and pass --hub secret/hub-bootstrap',
    });
  const rules: PolicyRule[] = [
    {
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get', 'update'],
      resourceNames: [HUB_CREDENTIALS_SECRET],
    },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [source.name] },
  ];
  const own = rbac.namespaced.find((n) => n.namespace === namespace);
  return {
    cluster: rbac.cluster,
    namespaced: own
      ? rbac.namespaced.map((n) => (n === own ? { namespace, rules: [...n.rules, ...rules] } : n))
      : [...rbac.namespaced, { namespace, rules }].sort((a, b) => a.namespace.localeCompare(b.namespace)),
  };
}

/**
 * The RBAC view of the platform's desired objects and of the ids its inventory holds, resolved
 * against what the server serves (`served`, by group and kind). A kind not served yet (the operand
 * of an operator not installed) gets Kubernetes' guessed plural, and is namespaced when the object
 * names a namespace. Inventory ids that do not parse are skipped (the engine drops them too).
 */
export function managedRefs(
  objects: readonly K8sObject[],
  inventory: Iterable<ObjectId>,
  served: (group: string, kind: string) => ResourceInfo | undefined,
): ManagedRef[] {
  const refs: { group: string; kind: string; namespace: string; name: string }[] = objects.map((o) => ({
    group: splitApiVersion(o.apiVersion).group,
    kind: o.kind,
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
  }));
  for (const id of inventory) {
    try {
      refs.push(parseId(id));
    } catch {
      // not an id: the engine warns about it and drops it
    }
  }
  return refs.map((r) => {
    const info = served(r.group, r.kind);
    return {
      ...r,
      resource: info?.resource ?? guessPlural(r.kind),
      namespace: info && !info.namespaced ? '' : r.namespace,
    };
  });
}
