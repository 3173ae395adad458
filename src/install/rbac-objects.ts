import type { K8sObject } from '../core/object.js';
import type { AgentRbac } from './rbac.js';

const RBAC = 'rbac.authorization.k8s.io';

/**
 * The agent's RBAC as objects: the ClusterRole `groundwork:<name>` and its binding, and in each
 * namespace of `rbac.namespaced` a Role `groundwork:<name>` and its binding, all for the
 * ServiceAccount `serviceAccount` in `namespace`. Named by the sync, so two agents managing the
 * same namespace keep separate Roles. With `authDelegator` (the agent's `--dashboard`), also a
 * ClusterRoleBinding `groundwork:<name>:auth-delegator` to the built-in ClusterRole
 * `system:auth-delegator` (`create` on tokenreviews and subjectaccessreviews only), as
 * kube-rbac-proxy and oauth-proxy deployments bind it. Pure.
 */
export function rbacObjects(opts: {
  /** The sync's name (`<platform>-<overlay>`). */
  name: string;
  namespace: string;
  serviceAccount: string;
  labels: Record<string, string>;
  rbac: AgentRbac;
  /** Bind `system:auth-delegator`: the dashboard reviews its readers' tokens. */
  authDelegator?: boolean;
}): K8sObject[] {
  const role = `groundwork:${opts.name}`;
  const subjects = [{ kind: 'ServiceAccount', name: opts.serviceAccount, namespace: opts.namespace }];
  return [
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: role, labels: opts.labels },
      rules: opts.rbac.cluster,
    },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: role, labels: opts.labels },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects,
    },
    ...(opts.authDelegator
      ? [
          {
            apiVersion: `${RBAC}/v1`,
            kind: 'ClusterRoleBinding',
            metadata: { name: `${role}:auth-delegator`, labels: opts.labels },
            roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'system:auth-delegator' },
            subjects,
          },
        ]
      : []),
    ...opts.rbac.namespaced.flatMap(({ namespace, rules }) => [
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'Role',
        metadata: { name: role, namespace, labels: opts.labels },
        rules,
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name: role, namespace, labels: opts.labels },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: role },
        subjects,
      },
    ]),
  ];
}
