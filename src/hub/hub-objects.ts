import type { K8sObject } from '../core/object.js';
import { CONTROLLER_SERVICE_ACCOUNT, REGISTRATION_SERVICE_ACCOUNT } from './hub-names.js';
import { hubCrds } from './hub-crds.js';
import { hubRbacObjects } from './hub-rbac.js';

const partOf = { 'app.kubernetes.io/part-of': 'groundwork-hub' };
const podLabels = { 'app.kubernetes.io/name': 'groundwork', 'app.kubernetes.io/component': 'hub' };

/** What `groundwork hub bootstrap` installs on the hub cluster. */
export interface HubInstallSpec {
  readonly namespace: string;
  /** The Groundwork image the controller runs. */
  readonly image: string;
  /** Without it, no Deployment: the controller runs elsewhere (`groundwork hub up` runs it locally). */
  readonly deployment?: boolean;
}

/**
 * Every object of a hub, in the order they are applied: the CRDs, the namespace, the controller's
 * and the registration ServiceAccounts, the RBAC (`hubRbacObjects`), and the controller's
 * Deployment (`groundwork hub run`: one replica, non-root, read-only root filesystem, no
 * capabilities, no token mounted beyond its own). Pure.
 */
export function hubObjects(spec: HubInstallSpec): K8sObject[] {
  const { namespace } = spec;
  const sa = (name: string): K8sObject => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace, labels: partOf },
    automountServiceAccountToken: false,
  });
  return [
    ...hubCrds(),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: partOf } },
    sa(CONTROLLER_SERVICE_ACCOUNT),
    sa(REGISTRATION_SERVICE_ACCOUNT),
    ...hubRbacObjects(namespace),
    ...(spec.deployment === false ? [] : [controllerDeployment(spec)]),
  ];
}

function controllerDeployment(spec: HubInstallSpec): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'groundwork-hub', namespace: spec.namespace, labels: { ...partOf, ...podLabels } },
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: podLabels },
      template: {
        metadata: { labels: { ...partOf, ...podLabels } },
        spec: {
          serviceAccountName: CONTROLLER_SERVICE_ACCOUNT,
          automountServiceAccountToken: true,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'hub',
              image: spec.image,
              args: ['hub', 'run', '--namespace', spec.namespace],
              env: [{ name: 'HOME', value: '/tmp' }],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '1Gi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: {} }],
        },
      },
    },
  };
}
