import { describeRef } from '../../../core/object-id.js';
import { isPlainObject } from '../../../core/object.js';
import type { ManifestPair } from '../manifest-pair.js';
import type { RiskNote } from '../risk-note.js';

const RBAC = 'rbac.authorization.k8s.io';

/**
 * `ClusterAdminGranted` (`high`): a ClusterRoleBinding or RoleBinding, added or changed, whose
 * `roleRef` is the ClusterRole `cluster-admin`: whoever it names may do anything (in the
 * namespace, for a RoleBinding). Pure; does not read what other roles grant.
 */
export function rbacRisks(pairs: readonly ManifestPair[]): RiskNote[] {
  const notes: RiskNote[] = [];
  for (const pair of pairs) {
    if (pair.action !== 'added' && pair.action !== 'changed') continue;
    if (
      pair.ref.group !== RBAC ||
      (pair.ref.kind !== 'ClusterRoleBinding' && pair.ref.kind !== 'RoleBinding')
    )
      continue;
    const roleRef = pair.head!.object.roleRef;
    if (!isPlainObject(roleRef) || roleRef.kind !== 'ClusterRole' || roleRef.name !== 'cluster-admin')
      continue;
    notes.push({
      severity: 'high',
      code: 'ClusterAdminGranted',
      subject: describeRef(pair.ref),
      message: `${pair.action === 'added' ? 'grants' : 'changes a grant of'} cluster-admin${pair.ref.kind === 'RoleBinding' ? ` in namespace ${pair.ref.namespace}` : ', cluster-wide'}: its subjects may do anything`,
      source: pair.head!.source,
    });
  }
  return notes;
}
