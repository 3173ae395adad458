import type { K8sObject } from '../core/object.js';
import {
  CONTROLLER_CLUSTER_ROLE,
  CONTROLLER_SERVICE_ACCOUNT,
  HUB_GROUP,
  MEMBER_CLUSTER_ROLE,
  MEMBER_LEASE,
  MEMBER_SERVICE_ACCOUNT,
  REGISTRATION_SERVICE_ACCOUNT,
} from './hub-names.js';

const RBAC = 'rbac.authorization.k8s.io';

/** One RBAC rule, as the API writes it. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
}

/**
 * What a member's agent may do on the hub, bound by a RoleBinding in its own namespace only (so
 * every right below is confined to `member-<name>`): read its FleetMember (the only one there),
 * write its status subresource (the apiserver ignores any other change made through it), renew
 * its heartbeat Lease (created by the controller: the member cannot create one), and renew its own
 * token. Nothing else: no list of namespaces, no other member, no Secret, no create.
 */
export const MEMBER_RULES: readonly PolicyRule[] = [
  { apiGroups: [HUB_GROUP], resources: ['fleetmembers'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [HUB_GROUP], resources: ['fleetmembers/status'], verbs: ['get', 'update', 'patch'] },
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    resourceNames: [MEMBER_LEASE],
    verbs: ['get', 'update'],
  },
  {
    apiGroups: [''],
    resources: ['serviceaccounts/token'],
    resourceNames: [MEMBER_SERVICE_ACCOUNT],
    verbs: ['create'],
  },
];

/** What a bootstrap kubeconfig may do: create a MemberRegistration and read one back by name. */
export const REGISTRATION_RULES: readonly PolicyRule[] = [
  { apiGroups: [HUB_GROUP], resources: ['memberregistrations'], verbs: ['create', 'get'] },
];

/**
 * The controller's cluster-wide rights: watch members and their Leases, set members up (namespace,
 * ServiceAccount, the RoleBinding to `MEMBER_CLUSTER_ROLE`, which it may `bind` without holding its
 * rights, the Lease, the FleetMember), write FleetMember spec and metadata, and mint the first token
 * of a `member` ServiceAccount. It never writes a member's status.
 */
export const CONTROLLER_CLUSTER_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [HUB_GROUP],
    resources: ['fleetmembers'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
  },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create'] },
  { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'create'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['get', 'create'] },
  {
    apiGroups: [''],
    resources: ['serviceaccounts/token'],
    resourceNames: [MEMBER_SERVICE_ACCOUNT],
    verbs: ['create'],
  },
  { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['get', 'create'] },
  { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: [MEMBER_CLUSTER_ROLE], verbs: ['bind'] },
];

/**
 * The controller's rights in the hub's namespace: registrations and the registration-token Secrets;
 * FleetRollouts' status (their spec is written by people, `groundwork fleet rollout`), Events.
 */
export const CONTROLLER_NAMESPACE_RULES: readonly PolicyRule[] = [
  {
    apiGroups: [HUB_GROUP],
    resources: ['memberregistrations'],
    verbs: ['get', 'list', 'watch', 'delete'],
  },
  { apiGroups: [HUB_GROUP], resources: ['memberregistrations/status'], verbs: ['update', 'patch'] },
  // Rollouts: the controller reads their spec and writes only their status (and an Event on a halt).
  { apiGroups: [HUB_GROUP], resources: ['fleetrollouts'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [HUB_GROUP], resources: ['fleetrollouts/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'update', 'patch', 'delete'] },
];

const partOf = { 'app.kubernetes.io/part-of': 'groundwork-hub' };

function role(
  kind: 'Role' | 'ClusterRole',
  name: string,
  rules: readonly PolicyRule[],
  namespace?: string,
): K8sObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), labels: partOf },
    rules: rules.map((r) => ({ ...r })),
  };
}

function binding(
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  name: string,
  roleRef: { kind: 'Role' | 'ClusterRole'; name: string },
  subject: { name: string; namespace: string },
  namespace?: string,
): K8sObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), labels: partOf },
    roleRef: { apiGroup: RBAC, ...roleRef },
    subjects: [{ kind: 'ServiceAccount', ...subject }],
  };
}

/**
 * The hub's RBAC in `namespace`: the member ClusterRole (bound only per member, by the controller),
 * the controller's ClusterRole and Role with their bindings, and the registration Role and binding.
 * Pure.
 */
export function hubRbacObjects(namespace: string): K8sObject[] {
  const controller = { name: CONTROLLER_SERVICE_ACCOUNT, namespace };
  const registration = `${HUB_GROUP}:registration`;
  return [
    role('ClusterRole', MEMBER_CLUSTER_ROLE, MEMBER_RULES),
    role('ClusterRole', CONTROLLER_CLUSTER_ROLE, CONTROLLER_CLUSTER_RULES),
    binding(
      'ClusterRoleBinding',
      CONTROLLER_CLUSTER_ROLE,
      { kind: 'ClusterRole', name: CONTROLLER_CLUSTER_ROLE },
      controller,
    ),
    role('Role', CONTROLLER_CLUSTER_ROLE, CONTROLLER_NAMESPACE_RULES, namespace),
    binding(
      'RoleBinding',
      CONTROLLER_CLUSTER_ROLE,
      { kind: 'Role', name: CONTROLLER_CLUSTER_ROLE },
      controller,
      namespace,
    ),
    role('Role', registration, REGISTRATION_RULES, namespace),
    binding(
      'RoleBinding',
      registration,
      { kind: 'Role', name: registration },
      { name: REGISTRATION_SERVICE_ACCOUNT, namespace },
      namespace,
    ),
  ];
}

/** The RoleBinding that gives member `name`'s ServiceAccount the member rights in its namespace. Pure. */
export function memberRoleBinding(namespace: string): K8sObject {
  return binding(
    'RoleBinding',
    MEMBER_CLUSTER_ROLE,
    { kind: 'ClusterRole', name: MEMBER_CLUSTER_ROLE },
    { name: MEMBER_SERVICE_ACCOUNT, namespace },
    namespace,
  );
}
