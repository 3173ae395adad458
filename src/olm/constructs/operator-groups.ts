import { ApiObject } from 'cdk8s';
import type { Platform } from '../../render/synth/platform.js';
import { Validation } from '../../render/synth/validation.js';
import type { OperatorShape } from './operator-shape.js';

const operators = new WeakMap<Platform, OperatorShape[]>();

/**
 * Records an operator on its platform and, once per platform, registers the finalizer that emits
 * exactly one OperatorGroup and at most one Namespace per operator namespace.
 */
export function registerOperator(platform: Platform, op: OperatorShape): void {
  const list = operators.get(platform) ?? [];
  list.push(op);
  operators.set(platform, list);
  platform.addFinalizer('olm/operator-groups', () => emitNamespacesAndGroups(platform, list));
}

function emitNamespacesAndGroups(platform: Platform, list: readonly OperatorShape[]): void {
  const byNamespace = new Map<string, OperatorShape[]>();
  for (const op of list) byNamespace.set(op.namespace, [...(byNamespace.get(op.namespace) ?? []), op]);
  const declaredNamespaces = new Set(
    platform.node
      .findAll()
      .filter(
        (c): c is ApiObject => c instanceof ApiObject && c.kind === 'Namespace' && c.apiGroup === 'core',
      )
      .map((o) => o.name),
  );

  for (const [namespace, ops] of [...byNamespace].sort(([a], [b]) => a.localeCompare(b))) {
    const first = ops[0]!;
    const targets = (op: OperatorShape) =>
      op.installMode === 'OwnNamespace' ? [namespace] : [...op.targetNamespaces].sort();
    for (const op of ops.slice(1)) {
      if (op.installMode !== first.installMode || targets(op).join() !== targets(first).join()) {
        Validation.error(
          op,
          'installMode',
          `conflicts with ${first.node.path} (${first.installMode}${first.targetNamespaces.length ? ` ${first.targetNamespaces.join(',')}` : ''}): a namespace has exactly one OperatorGroup, so all its operators share one install mode`,
          `use the same installMode/targetNamespaces, or move one operator to its own namespace`,
        );
      }
    }
    const pinned = ops.filter((op) => op.approval === 'Manual');
    if (pinned.length > 0 && ops.length > 1) {
      for (const op of pinned) {
        Validation.warn(
          op,
          'approval',
          `Manual approval in namespace ${namespace}, shared with ${ops.length - 1} other operator(s): OLM resolves a namespace as one unit, so every InstallPlan there becomes Manual and may batch several operators' CSVs; Groundwork never approves a plan carrying a CSV that is not on a pin's path`,
          `give ${op.packageName} its own namespace`,
        );
      }
    }

    if (namespace === 'openshift-operators') {
      // OpenShift ships the `global-operators` OperatorGroup there; a second one breaks every operator in it.
      for (const op of ops.filter((o) => o.installMode !== 'AllNamespaces')) {
        Validation.error(
          op,
          'installMode',
          `openshift-operators holds the global-operators OperatorGroup (AllNamespaces); ${op.installMode} is not possible there`,
          'use AllNamespaces, or choose a namespace of its own',
        );
      }
    } else {
      new ApiObject(platform, `olm-operatorgroup-${namespace}`, {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: namespace, namespace },
        spec: first.installMode === 'AllNamespaces' ? {} : { targetNamespaces: targets(first) },
      });
    }
    if (ops.some((op) => op.createNamespace) && !declaredNamespaces.has(namespace)) {
      new ApiObject(platform, `olm-namespace-${namespace}`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
    }
  }
}
