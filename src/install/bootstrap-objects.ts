import type { K8sObject } from '../core/object.js';
import { platformSyncName } from '../core/object-name.js';
import { agentNetworkPolicy, type AgentEgress, type AgentIngress } from './network-policy.js';
import type { AgentRbac } from './rbac.js';
import { rbacObjects } from './rbac-objects.js';
import type { CommitStatusOptions } from '../agent/notifications.js';

/** What `groundwork bootstrap` installs the agent with. */
export interface BootstrapSpec {
  platform: string;
  overlay: string;
  /** @default 'groundwork-system' */
  namespace: string;
  repository: { url: string; ref: { branch?: string; tag?: string; commit?: string }; path?: string };
  mode: 'detect-only' | 'self-heal';
  /** Poll interval, e.g. `1m`. */
  interval: string;
  image: string;
  /** Two replicas: one acts, the other stands by (leader election). */
  replicas: number;
  /** The agent's RBAC, from `agentRbac`. */
  rbac: AgentRbac;
  /** Address the agent's HTTP server listens on (`--http-bind`). @default '0.0.0.0' */
  httpBind?: string;
  credentials?: { token?: string; username?: string; password?: string };
  webhookSecret?: string;
  /** The agent's commit statuses (`--commit-status-*`, README "Notifications"); none without. */
  commitStatus?: CommitStatusOptions;
  /** The agent's `--cluster-name`. */
  clusterName?: string;
  /** The agent's `--verify-commits` (README "Trusted commits"); none without. */
  verifyCommits?: string;
  /** The agent's `--decryption-secret` (README "Secrets"); none without. */
  decryptionSecret?: string;
  /**
   * The agent's `--dashboard`: passed on, and its ServiceAccount bound to `system:auth-delegator`
   * (the token and access reviews the dashboard makes).
   */
  dashboard?: boolean;
  /** What the agent's NetworkPolicy allows; no NetworkPolicy without it. */
  networkPolicy?: { egress: AgentEgress; ingress: AgentIngress };
}

export const AGENT_NAME = 'groundwork-agent';
const SECRET = 'groundwork-git-credentials';

/**
 * The objects that run the agent in a cluster: Namespace, ServiceAccount, least-privilege RBAC
 * (`rbacObjects`: a ClusterRole, and a Role in each namespace of `rbac`, which must exist before
 * these are applied), the credentials Secret, the PlatformSync status object and a Deployment with
 * two replicas under leader election, and with `networkPolicy` a NetworkPolicy
 * (`agentNetworkPolicy`). Pure; credentials appear only in the Secret (as stringData).
 */
export function bootstrapObjects(spec: BootstrapSpec): K8sObject[] {
  const ns = spec.namespace;
  const name = platformSyncName(spec.platform, spec.overlay);
  const labels = {
    'app.kubernetes.io/name': 'groundwork',
    'app.kubernetes.io/component': 'agent',
    'groundwork.io/platform': spec.platform,
  };
  const ref = spec.repository.ref;
  const refArgs = ref.commit
    ? ['--commit', ref.commit]
    : ref.tag
      ? ['--tag', ref.tag]
      : ['--branch', ref.branch ?? 'main'];
  const hasCreds = Boolean(spec.credentials?.token || spec.credentials?.username || spec.webhookSecret);
  const secretEnv = (env: string, key: string) => ({
    name: env,
    valueFrom: { secretKeyRef: { name: SECRET, key, optional: true } },
  });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: AGENT_NAME, namespace: ns, labels } },
    ...rbacObjects({
      name,
      namespace: ns,
      serviceAccount: AGENT_NAME,
      labels,
      rbac: spec.rbac,
      ...(spec.dashboard ? { authDelegator: true } : {}),
    }),
    ...(hasCreds
      ? [
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: SECRET, namespace: ns, labels },
            type: 'Opaque',
            stringData: {
              ...(spec.credentials?.token ? { token: spec.credentials.token } : {}),
              ...(spec.credentials?.username
                ? { username: spec.credentials.username, password: spec.credentials.password ?? '' }
                : {}),
              ...(spec.webhookSecret ? { webhookSecret: spec.webhookSecret } : {}),
            },
          },
        ]
      : []),
    {
      apiVersion: 'groundwork.io/v1alpha1',
      kind: 'PlatformSync',
      metadata: { name, namespace: ns, labels },
      spec: {
        repository: {
          url: spec.repository.url,
          ref,
          ...(spec.repository.path ? { path: spec.repository.path } : {}),
        },
        overlay: spec.overlay,
        mode: spec.mode,
        interval: spec.interval,
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: AGENT_NAME, namespace: ns, labels },
      spec: {
        replicas: spec.replicas,
        selector: {
          matchLabels: { 'app.kubernetes.io/name': 'groundwork', 'app.kubernetes.io/component': 'agent' },
        },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: AGENT_NAME,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: 'agent',
                image: spec.image,
                args: [
                  'agent',
                  '--repo',
                  spec.repository.url,
                  ...refArgs,
                  ...(spec.repository.path ? ['--path', spec.repository.path] : []),
                  '--overlay',
                  spec.overlay,
                  '--mode',
                  spec.mode,
                  '--interval',
                  spec.interval,
                  '--namespace',
                  ns,
                  '--sync-name',
                  name,
                  '--leader-elect',
                  '--http-bind',
                  spec.httpBind ?? '0.0.0.0',
                  ...commitStatusArgs(spec),
                  ...(spec.dashboard ? ['--dashboard'] : []),
                  ...(spec.verifyCommits ? ['--verify-commits', spec.verifyCommits] : []),
                  ...(spec.decryptionSecret ? ['--decryption-secret', spec.decryptionSecret] : []),
                ],
                env: [
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                  { name: 'GROUNDWORK_CACHE_DIR', value: '/cache' },
                  { name: 'HOME', value: '/tmp' },
                  ...(hasCreds
                    ? [
                        secretEnv('GROUNDWORK_GIT_TOKEN', 'token'),
                        secretEnv('GROUNDWORK_GIT_USERNAME', 'username'),
                        secretEnv('GROUNDWORK_GIT_PASSWORD', 'password'),
                        secretEnv('GROUNDWORK_WEBHOOK_SECRET', 'webhookSecret'),
                      ]
                    : []),
                ],
                ports: [{ name: 'http', containerPort: 8080 }],
                readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10 },
                livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 20 },
                resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '1Gi' } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ['ALL'] },
                },
                volumeMounts: [
                  { name: 'cache', mountPath: '/cache' },
                  { name: 'tmp', mountPath: '/tmp' },
                ],
              },
            ],
            volumes: [
              { name: 'cache', emptyDir: {} },
              { name: 'tmp', emptyDir: {} },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: AGENT_NAME, namespace: ns, labels },
      spec: {
        selector: { 'app.kubernetes.io/name': 'groundwork', 'app.kubernetes.io/component': 'agent' },
        ports: [{ name: 'http', port: 8080, targetPort: 'http' }],
      },
    },
    ...(spec.networkPolicy
      ? [
          agentNetworkPolicy({
            namespace: ns,
            name: AGENT_NAME,
            labels,
            podLabels: { 'app.kubernetes.io/name': 'groundwork', 'app.kubernetes.io/component': 'agent' },
            ...spec.networkPolicy,
            httpPort: 8080,
          }),
        ]
      : []),
  ];
}

/** The agent's notification flags for `spec` (none without commit statuses or a cluster name). */
function commitStatusArgs(spec: BootstrapSpec): string[] {
  const cs = spec.commitStatus;
  return [
    ...(cs ? ['--commit-status-secret', cs.secret] : []),
    ...(cs?.forge ? ['--commit-status-forge', cs.forge] : []),
    ...(cs?.apiUrl ? ['--commit-status-api', cs.apiUrl] : []),
    ...(cs?.dashboardUrl ? ['--dashboard-url', cs.dashboardUrl] : []),
    ...(spec.clusterName ? ['--cluster-name', spec.clusterName] : []),
  ];
}
