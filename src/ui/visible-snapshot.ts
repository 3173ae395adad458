import { parseId, type ObjectRef } from '../core/object-id.js';
import type { K8sObject } from '../core/object.js';
import { accessKey, type AccessAttributes, type ResourceOf } from './access-attributes.js';
import type { DashboardSnapshot, DriftRow, OpenShiftView } from './snapshot.js';

/** What a reader must be allowed to `get` to see a managed object: its resource in its namespace. */
export function objectAttributes(ref: ObjectRef, resourceOf: ResourceOf): AccessAttributes {
  const info = resourceOf(ref.group, ref.kind);
  // A kind not served has no resource to ask about: only a reader allowed every resource there sees it.
  return info
    ? { verb: 'get', group: ref.group, resource: info.resource, namespace: ref.namespace }
    : { verb: 'get', group: '*', resource: '*', namespace: ref.namespace };
}

/**
 * `objectAttributes` memoized by group, kind and namespace: a page of 5,000 objects has a few dozen
 * distinct answers, so each row costs one short key and a map lookup, not a new object and three.
 */
function byKind<T>(resourceOf: ResourceOf, then: (a: AccessAttributes) => T): (ref: ObjectRef) => T {
  const memo = new Map<string, T>();
  return (ref) => {
    const k = `${ref.group}/${ref.kind}/${ref.namespace}`;
    let v = memo.get(k);
    if (v === undefined) {
      v = then(objectAttributes(ref, resourceOf));
      memo.set(k, v);
    }
    return v;
  };
}

/** A drift row's object: by its inventory id, else by the report's `Kind/namespace/name` (any resource). */
function driftAttributes(row: DriftRow, resourceOf: ResourceOf): AccessAttributes {
  if (row.id) {
    try {
      return objectAttributes(parseId(row.id), resourceOf);
    } catch {
      // not an id: as below
    }
  }
  const parts = row.object.split('/');
  return { verb: 'get', group: '*', resource: '*', namespace: parts.length === 3 ? parts[1]! : '' };
}

/** The OpenShift page's kinds: what a reader must be allowed to `list` (or `get`) to see them. */
const OPENSHIFT_ACCESS: Record<
  Exclude<keyof OpenShiftView, 'clusterVersion'>,
  { group: string; resource: string; kind: string; namespaced: boolean }
> = {
  clusterOperators: {
    group: 'config.openshift.io',
    resource: 'clusteroperators',
    kind: 'ClusterOperator',
    namespaced: false,
  },
  pools: {
    group: 'machineconfiguration.openshift.io',
    resource: 'machineconfigpools',
    kind: 'MachineConfigPool',
    namespaced: false,
  },
  subscriptions: {
    group: 'operators.coreos.com',
    resource: 'subscriptions',
    kind: 'Subscription',
    namespaced: true,
  },
  csvs: {
    group: 'operators.coreos.com',
    resource: 'clusterserviceversions',
    kind: 'ClusterServiceVersion',
    namespaced: true,
  },
  installPlans: {
    group: 'operators.coreos.com',
    resource: 'installplans',
    kind: 'InstallPlan',
    namespaced: true,
  },
};
const CLUSTER_VERSION: AccessAttributes = {
  verb: 'get',
  group: 'config.openshift.io',
  resource: 'clusterversions',
  namespace: '',
};

function listAttributes(part: keyof typeof OPENSHIFT_ACCESS, obj: K8sObject): AccessAttributes {
  const a = OPENSHIFT_ACCESS[part];
  return {
    verb: 'list',
    group: a.group,
    resource: a.resource,
    namespace: a.namespaced ? (obj.metadata.namespace ?? '') : '',
  };
}

/** Which parts of a snapshot to authorize: the OpenShift page's lists only where it is shown. */
export interface SnapshotScope {
  openshift: boolean;
}

/**
 * Everything a page built from `s` could show that needs a permission: `get` on each managed object's
 * resource in its namespace (the Objects, Overview and Drift pages), and with `scope.openshift`
 * `get` on the ClusterVersion and `list` on each OpenShift kind where its objects are. Unique. Pure.
 */
export function snapshotNeeds(
  s: DashboardSnapshot,
  resourceOf: ResourceOf,
  scope: SnapshotScope,
): AccessAttributes[] {
  const needs: AccessAttributes[] = [];
  const seen = byKind(resourceOf, (a) => needs.push(a));
  for (const r of s.objects) seen(r.ref);
  needs.push(...s.drift.map((r) => driftAttributes(r, resourceOf)));
  if (scope.openshift) {
    if (s.openshift.clusterVersion) needs.push(CLUSTER_VERSION);
    for (const part of Object.keys(OPENSHIFT_ACCESS) as (keyof typeof OPENSHIFT_ACCESS)[])
      for (const o of s.openshift[part] ?? []) needs.push(listAttributes(part, o));
  }
  return [...new Map(needs.map((a) => [accessKey(a), a])).values()];
}

/**
 * `s` as one reader may see it: the selected PlatformSync only (the one they were allowed to get),
 * the managed objects and drift items they may `get` (the Overview's counts follow), with
 * `scope.openshift` the OpenShift objects they may list (else none), and `hidden` counting what was
 * left out, never naming it. Desired objects go with their rows: git's values are shown only
 * beside a live object the reader may read. Pure; `s` is not changed.
 */
export function visibleSnapshot(
  s: DashboardSnapshot,
  allowed: (a: AccessAttributes) => boolean,
  resourceOf: ResourceOf,
  scope: SnapshotScope & { unchecked?: number },
): DashboardSnapshot {
  const may = byKind(resourceOf, allowed);
  const objects = s.objects.filter((r) => may(r.ref));
  const drift = s.drift.filter((r) => allowed(driftAttributes(r, resourceOf)));
  const openshift: OpenShiftView = {};
  const hiddenKinds: string[] = [];
  if (scope.openshift) {
    if (s.openshift.clusterVersion) {
      if (allowed(CLUSTER_VERSION)) openshift.clusterVersion = s.openshift.clusterVersion;
      else hiddenKinds.push('ClusterVersion');
    }
    for (const part of Object.keys(OPENSHIFT_ACCESS) as (keyof typeof OPENSHIFT_ACCESS)[]) {
      const all = s.openshift[part];
      if (!all) continue;
      const kept = all.filter((o) => allowed(listAttributes(part, o)));
      if (kept.length < all.length) hiddenKinds.push(OPENSHIFT_ACCESS[part].kind);
      // A kind none of whose objects may be listed is as if not served, and named in `hidden`.
      if (kept.length > 0 || all.length === 0) openshift[part] = kept;
    }
  }
  const sync = s.selected !== undefined ? s.syncs[s.selected] : undefined;
  return {
    ...s,
    syncs: sync ? [sync] : [],
    selected: sync ? 0 : undefined,
    objects,
    drift,
    openshift,
    hidden: {
      objects: s.objects.length - objects.length,
      drift: s.drift.length - drift.length,
      openshift: hiddenKinds,
      unchecked: scope.unchecked ?? 0,
    },
  };
}
