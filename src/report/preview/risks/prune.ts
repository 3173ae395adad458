import { ANNOTATIONS } from '../../../core/annotations.js';
import { describeRef } from '../../../core/object-id.js';
import { isPlainObject, type K8sObject } from '../../../core/object.js';
import { isKind, type ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

/**
 * Risk notes for objects that leave the desired set. Groundwork prunes them (deletes them from the
 * cluster) unless the base object is annotated `groundwork.io/prune: keep` (`PruneKept`, `info`: it
 * stays, unmanaged). A pruned Namespace is `NamespacePruned` (`high`: everything in it goes, so the
 * objects pruned with it are listed in its note instead of one note each, and a `keep` object in it
 * is deleted anyway); a pruned CustomResourceDefinition is `CrdRemoved` (`high`: every custom
 * resource of it goes, cluster-wide); anything else is `ObjectPruned` (`medium`; `high` for the
 * ClusterVersion).
 */
export function pruneRisks(pairs: readonly ManifestPair[]): RiskNote[] {
  const removed = pairs.filter((p) => p.action === 'removed' && p.base);
  const keep = (p: ManifestPair): boolean =>
    p.base!.object.metadata.annotations?.[ANNOTATIONS.prune] === 'keep';
  const prunedNamespaces = new Set(
    removed.filter((p) => isKind(p, '', 'Namespace') && !keep(p)).map((p) => p.ref.name),
  );
  const notes: RiskNote[] = [];
  for (const pair of removed) {
    const subject = describeRef(pair.ref);
    const obj = pair.base!.object;
    if (pair.ref.namespace && prunedNamespaces.has(pair.ref.namespace)) continue; // in its namespace's note
    if (keep(pair)) {
      notes.push({
        severity: 'info',
        code: 'PruneKept',
        subject,
        message: `leaves the desired set but is annotated ${ANNOTATIONS.prune}: keep: it stays in the cluster, no longer managed`,
      });
    } else if (isKind(pair, '', 'Namespace')) {
      notes.push(namespaceNote(pair, removed, keep));
    } else if (isKind(pair, 'apiextensions.k8s.io', 'CustomResourceDefinition')) {
      notes.push({
        severity: 'high',
        code: 'CrdRemoved',
        subject,
        message: `deletes the CRD and with it every ${crdName(obj)} custom resource in the cluster`,
      });
    } else {
      const severity = isKind(pair, 'config.openshift.io', 'ClusterVersion') ? 'high' : 'medium';
      notes.push({
        severity,
        code: 'ObjectPruned',
        subject,
        message: `leaves the desired set: Groundwork deletes it from the cluster${consequence(pair, obj)}`,
      });
    }
  }
  return notes;
}

function namespaceNote(
  ns: ManifestPair,
  removed: readonly ManifestPair[],
  keep: (p: ManifestPair) => boolean,
): RiskNote {
  const inside = removed.filter((p) => p.ref.namespace === ns.ref.name);
  const kept = inside.filter(keep).map((p) => describeRef(p.ref));
  const listed = inside.length
    ? `; also leaving the desired set: ${inside.map((p) => describeRef(p.ref)).join(', ')}`
    : '';
  const warning = kept.length
    ? `; ${kept.join(', ')} ${kept.length === 1 ? 'is' : 'are'} annotated keep but deleted with the namespace`
    : '';
  return {
    severity: 'high',
    code: 'NamespacePruned',
    subject: describeRef(ns.ref),
    message: `deletes namespace ${ns.ref.name} and every object in it, declared or not${listed}${warning}`,
  };
}

function crdName(crd: K8sObject): string {
  const spec = isPlainObject(crd.spec) ? crd.spec : {};
  const names = isPlainObject(spec.names) ? spec.names : {};
  return typeof names.kind === 'string' && typeof spec.group === 'string'
    ? `${spec.group}/${names.kind}`
    : crd.metadata.name;
}

/** What deleting this kind does beyond the object itself. */
function consequence(pair: ManifestPair, obj: K8sObject): string {
  if (isKind(pair, 'operators.coreos.com', 'Subscription')) {
    const pkg =
      isPlainObject(obj.spec) && typeof obj.spec.name === 'string' ? obj.spec.name : obj.metadata.name;
    return `: OLM stops updating ${pkg}; its installed CSV, CRDs and operands stay until removed`;
  }
  if (isKind(pair, 'config.openshift.io', 'ClusterVersion'))
    return `, and the cluster loses its update settings: annotate it ${ANNOTATIONS.prune}: keep to stop managing the version instead`;
  if (isKind(pair, 'machineconfiguration.openshift.io', 'MachineConfig'))
    return ': the pools that selected it roll without it';
  return '';
}
