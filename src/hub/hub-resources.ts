import type { ResourceInfo } from '../cluster/discovery.js';
import { HUB_GROUP, HUB_VERSION } from './hub-names.js';

/** The kinds the hub watches, as the cluster adapter's watches and caches take them. */
export const HUB_RESOURCES: Readonly<
  Record<'fleetMembers' | 'registrations' | 'leases' | 'fleetRollouts', ResourceInfo>
> = {
  fleetMembers: {
    group: HUB_GROUP,
    version: HUB_VERSION,
    kind: 'FleetMember',
    resource: 'fleetmembers',
    namespaced: true,
    verbs: ['get', 'list', 'watch'],
  },
  registrations: {
    group: HUB_GROUP,
    version: HUB_VERSION,
    kind: 'MemberRegistration',
    resource: 'memberregistrations',
    namespaced: true,
    verbs: ['get', 'list', 'watch'],
  },
  fleetRollouts: {
    group: HUB_GROUP,
    version: HUB_VERSION,
    kind: 'FleetRollout',
    resource: 'fleetrollouts',
    namespaced: true,
    verbs: ['get', 'list', 'watch'],
  },
  leases: {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    resource: 'leases',
    namespaced: true,
    verbs: ['get', 'list', 'watch'],
  },
};

/** What the hub's long-running parts log through (a pino logger fits). */
export interface HubLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}
