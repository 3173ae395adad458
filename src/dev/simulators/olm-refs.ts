// Reading what OLM reads off Subscriptions and CSVs: a Subscription's spec, the operator it has
// installed, and object references for its status.
import type { K8sObject } from '../../core/object.js';
import type { InstalledOperator } from './olm-resolve.js';
import type { ObjectReference, SubscriptionStatus } from './olm-subscription-status.js';

export function specOf(sub: K8sObject): {
  package: string;
  channel: string;
  source: string;
  sourceNamespace: string;
  startingCSV: string | undefined;
} {
  const spec = (sub.spec ?? {}) as {
    name?: string;
    channel?: string;
    source?: string;
    sourceNamespace?: string;
    startingCSV?: string;
  };
  return {
    package: spec.name ?? '',
    channel: spec.channel ?? '',
    source: spec.source ?? '',
    sourceNamespace: spec.sourceNamespace ?? '',
    startingCSV: spec.startingCSV || undefined,
  };
}

/** The CSV a Subscription has installed: `installedCSV` (else `currentCSV`) when that CSV exists. */
export function installedOf(
  status: SubscriptionStatus,
  csvs: ReadonlyMap<string, K8sObject>,
): InstalledOperator | undefined {
  for (const name of [status.installedCSV, status.currentCSV]) {
    const csv = name ? csvs.get(name) : undefined;
    if (csv) return { csv: csv.metadata.name, version: (csv.spec as { version?: string }).version };
  }
  return undefined;
}

export function reference(obj: K8sObject): ObjectReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    namespace: obj.metadata.namespace ?? '',
    resourceVersion: obj.metadata.resourceVersion ?? '',
    uid: obj.metadata.uid ?? '',
  };
}
