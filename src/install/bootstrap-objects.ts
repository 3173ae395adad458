import type { K8sObject } from '../core/object.js';
import { platformSyncName } from '../core/object-name.js';
import { agentNetworkPolicy, type AgentEgress, type AgentIngress } from './network-policy.js';
import { RENDERER_POD_LABELS, RENDERER_PORT, rendererObjects, rendererUrl } from './renderer-objects.js';
import { withHubRbac, type AgentRbac } from './rbac.js';
import { rbacObjects } from './rbac-objects.js';
import type { CommitStatusOptions } from '../agent/notifications.js';
import { commitStatusFlags, passedOn, repositoryFlags, type PassedOnText } from '../agent/options.js';
import {
  AGENT_HTTP_PORT,
  AGENT_NAME,
  AGENT_POD_LABELS,
  CREDENTIALS_SECRET,
  agentDeployment,
} from './agent-deployment.js';

/**
 * What `groundwork bootstrap` installs the agent with: the agent flags it passes on as they are
 * (`PassedOnText`: `--mode`, `--interval`, `--http-bind`, `--dashboard`, `--verify-commits`,
 * `--decryption-secret`, `--cluster-name`, ...), the repository and commit statuses (folded into
 * their flags), and what only bootstrap knows.
 */
export interface BootstrapSpec extends PassedOnText {
  platform: string;
  overlay: string;
  /** @default 'groundwork-system' */
  namespace: string;
  repository: { url: string; ref: { branch?: string; tag?: string; commit?: string }; path?: string };
  mode: 'detect-only' | 'self-heal';
  /** Poll interval, e.g. `1m`: the PlatformSync's and the agent's `--interval`. */
  interval: string;
  image: string;
  /** Two replicas: one acts, the other stands by (leader election). */
  replicas: number;
  /** The agent's RBAC, from `agentRbac`. */
  rbac: AgentRbac;
  /**
   * Git credentials for the Secret: HTTP (`token`, or `username` and `password`), or SSH (`ssh`:
   * the deploy key as `identity`, `known_hosts`, the key's passphrase as `password`, laid out as
   * Flux's; the agent then reads the Secret itself, `--credentials-secret`).
   */
  credentials?: {
    token?: string;
    username?: string;
    password?: string;
    ssh?: { identity?: string; knownHosts?: string; passphrase?: string };
  };
  webhookSecret?: string;
  /** The agent's commit statuses (`--commit-status-*`, docs/notifications.md); none without. */
  commitStatus?: CommitStatusOptions;
  /** What the agent's NetworkPolicy allows; no NetworkPolicy without it. */
  networkPolicy?: { egress: AgentEgress; ingress: AgentIngress };
}

/**
 * The objects that run the agent in a cluster: Namespace, ServiceAccount, least-privilege RBAC
 * (`rbacObjects`: a ClusterRole, and a Role in each namespace of `rbac`, which must exist before
 * these are applied; with `dashboard`, the binding its token reviews need), the credentials Secret,
 * the PlatformSync status object, the Deployment (`agentDeployment`, its flags passed on under
 * leader election, `--renderer` its renderer) and its Service, with `networkPolicy` a NetworkPolicy
 * (`agentNetworkPolicy`, egress to the renderer included), and the renderer pod (`rendererObjects`:
 * its own ServiceAccount with no token and no RBAC, Deployment, Service, and a NetworkPolicy that
 * denies its egress and admits only the agent).
 * Pure; credentials appear only in the Secret (as stringData).
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
  const ssh = spec.credentials?.ssh?.identity ? spec.credentials.ssh : undefined;
  const hasCreds = Boolean(
    spec.credentials?.token || spec.credentials?.username || ssh || spec.webhookSecret,
  );
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: AGENT_NAME, namespace: ns, labels } },
    ...rbacObjects({
      name,
      namespace: ns,
      serviceAccount: AGENT_NAME,
      labels,
      rbac: withHubRbac(spec.rbac, ns, spec.hub),
      ...(spec.dashboard ? { authDelegator: true } : {}),
    }),
    ...(hasCreds
      ? [
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: CREDENTIALS_SECRET, namespace: ns, labels },
            type: 'Opaque',
            stringData: {
              ...(spec.credentials?.token ? { token: spec.credentials.token } : {}),
              ...(spec.credentials?.username && !ssh
                ? { username: spec.credentials.username, password: spec.credentials.password ?? '' }
                : {}),
              ...(ssh
                ? {
                    identity: ssh.identity!,
                    ...(ssh.knownHosts ? { known_hosts: ssh.knownHosts } : {}),
                    ...(ssh.passphrase ? { password: ssh.passphrase } : {}),
                  }
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
    agentDeployment({
      namespace: ns,
      labels,
      image: spec.image,
      replicas: spec.replicas,
      credentials: hasCreds,
      flags: {
        ...passedOn(spec),
        ...repositoryFlags(spec.repository),
        ...commitStatusFlags(spec.commitStatus),
        // The deploy key and known_hosts are read from the Secret by the agent (never an env var).
        ...(ssh ? { credentialsSecret: CREDENTIALS_SECRET } : {}),
        namespace: ns,
        syncName: name,
        leaderElect: true,
        httpBind: spec.httpBind ?? '0.0.0.0',
        // Repository content runs in the renderer pod, never in the agent's.
        renderer: rendererUrl(ns),
      },
    }),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: AGENT_NAME, namespace: ns, labels },
      spec: {
        selector: AGENT_POD_LABELS,
        ports: [{ name: 'http', port: AGENT_HTTP_PORT, targetPort: 'http' }],
      },
    },
    ...(spec.networkPolicy
      ? [
          agentNetworkPolicy({
            namespace: ns,
            name: AGENT_NAME,
            labels,
            podLabels: AGENT_POD_LABELS,
            ...spec.networkPolicy,
            httpPort: AGENT_HTTP_PORT,
            renderer: { podLabels: RENDERER_POD_LABELS, port: RENDERER_PORT },
          }),
        ]
      : []),
    ...rendererObjects({ namespace: ns, labels, image: spec.image }),
  ];
}
