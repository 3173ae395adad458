// The hub's names, frozen once members depend on them (docs/hub.md "The API"): the API group and
// version, the namespaces, ServiceAccounts, Leases, labels and annotations the hub and its members
// agree on. Plain data and pure derivations; every layer of the hub imports them from here.

/** The API group of the hub's kinds. */
export const HUB_GROUP = 'hub.groundwork.io';
/** Its one version; fields are only ever added within it. */
export const HUB_VERSION = 'v1alpha1';
export const HUB_API_VERSION = `${HUB_GROUP}/${HUB_VERSION}`;

/** The namespace of the controller, the registration ServiceAccount, tokens and registrations. */
export const HUB_NAMESPACE = 'groundwork-hub';

/** The hub's own ServiceAccount (the `groundwork hub` controller). */
export const CONTROLLER_SERVICE_ACCOUNT = 'hub-controller';
/** The ServiceAccount of bootstrap kubeconfigs: it may only create and get MemberRegistrations. */
export const REGISTRATION_SERVICE_ACCOUNT = 'registration';

/** Each member's namespace is `member-<name>`; it holds its FleetMember, Lease and ServiceAccount. */
export const MEMBER_NAMESPACE_PREFIX = 'member-';
/** The ServiceAccount a member's agent acts as, in the member's namespace. */
export const MEMBER_SERVICE_ACCOUNT = 'member';
/** The member's heartbeat Lease, in the member's namespace. */
export const MEMBER_LEASE = 'member-heartbeat';
/** The ClusterRole every member's RoleBinding names (only ever bound in its own namespace). */
export const MEMBER_CLUSTER_ROLE = 'groundwork-hub-member';
/** The ClusterRole of the controller. */
export const CONTROLLER_CLUSTER_ROLE = 'groundwork-hub-controller';

/** Labels the hub sets; a member can write none of them. */
export const LABELS = {
  /** On member namespaces, FleetMembers and Leases: the member's name. */
  member: `${HUB_GROUP}/member`,
  /** On FleetMembers: `Reachable`, `Unreachable` or `Unknown` (`Reachability`). */
  reachability: `${HUB_GROUP}/reachability`,
  /** On FleetMembers: the environment the hub placed it in. */
  environment: `${HUB_GROUP}/environment`,
  /** On registration-token Secrets. */
  token: `${HUB_GROUP}/registration-token`,
} as const;

/** Annotations the hub sets on FleetMembers (the reachability judgement, by the hub's clock). */
export const ANNOTATIONS = {
  /** When the hub last saw the member's Lease renewed (RFC 3339, the hub's clock). */
  lastSeen: `${HUB_GROUP}/last-seen`,
  /** When the reachability label last changed (RFC 3339). */
  reachabilitySince: `${HUB_GROUP}/reachability-since`,
} as const;

/** The type of registration-token Secrets. */
export const TOKEN_SECRET_TYPE = `${HUB_GROUP}/registration-token`;

/** Member names: a DNS label short enough for `member-<name>` and the label values it goes into. */
export const MEMBER_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
export const MEMBER_NAME_MAX = 40;

/** The namespace of member `name`. */
export function memberNamespace(name: string): string {
  return `${MEMBER_NAMESPACE_PREFIX}${name}`;
}

/** The member a namespace belongs to, or undefined for any other namespace. */
export function memberOfNamespace(namespace: string): string | undefined {
  if (!namespace.startsWith(MEMBER_NAMESPACE_PREFIX)) return undefined;
  const name = namespace.slice(MEMBER_NAMESPACE_PREFIX.length);
  return MEMBER_NAME.test(name) ? name : undefined;
}

/** REST paths of the hub's kinds. */
export const HUB_PATHS = {
  fleetMembers: `/apis/${HUB_API_VERSION}/fleetmembers`,
  fleetMember: (name: string) =>
    `/apis/${HUB_API_VERSION}/namespaces/${memberNamespace(name)}/fleetmembers/${name}`,
  registrations: (namespace: string) =>
    `/apis/${HUB_API_VERSION}/namespaces/${namespace}/memberregistrations`,
  registration: (namespace: string, name: string) =>
    `/apis/${HUB_API_VERSION}/namespaces/${namespace}/memberregistrations/${name}`,
  lease: (member: string) =>
    `/apis/coordination.k8s.io/v1/namespaces/${memberNamespace(member)}/leases/${MEMBER_LEASE}`,
  leases: '/apis/coordination.k8s.io/v1/leases',
} as const;
