import type { K8sObject } from '../core/object.js';
import { agentArgs, type AgentFlagText } from '../agent/options.js';

/** The agent's name: its ServiceAccount, Deployment, Service and NetworkPolicy. */
export const AGENT_NAME = 'groundwork-agent';

/** The Secret of the git credentials and the webhook secret bootstrap installs. */
export const CREDENTIALS_SECRET = 'groundwork-git-credentials';

/** The agent's pods, as the Deployment, Service and NetworkPolicy select them. */
export const AGENT_POD_LABELS = {
  'app.kubernetes.io/name': 'groundwork',
  'app.kubernetes.io/component': 'agent',
};

/** The agent's HTTP port in its pod (`--http-port`'s default): probes, metrics, webhook. */
export const AGENT_HTTP_PORT = 8080;

/** A container's securityContext in Groundwork's pods: no privilege, no capability, a read-only root. */
export const RESTRICTED_CONTAINER = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

/** The writable places of Groundwork's read-only pods: `/cache` and `/tmp`, each an emptyDir. */
export function cacheAndTmp(sizeLimit?: string): { volumeMounts: object[]; volumes: object[] } {
  const emptyDir = sizeLimit ? { sizeLimit } : {};
  return {
    volumeMounts: [
      { name: 'cache', mountPath: '/cache' },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    volumes: [
      { name: 'cache', emptyDir },
      { name: 'tmp', emptyDir: { ...emptyDir } },
    ],
  };
}

/**
 * glibc malloc settings in the agent's container (issue 36; the image is Debian's, glibc): at most
 * two arenas (glibc's default grows to 8 per core, one per thread that allocates, each keeping
 * what its peaks took), and fixed thresholds instead of the adaptive ones, which after one large
 * free (a renderer's answer, a LIST of 20,000 objects) keep up to 64 MB of freed memory in the
 * process: blocks of 128 KiB and more are mapped and unmapped alone, and free memory at the top
 * of the heap past 128 KiB is handed back. `bench agent` runs its agent with the same.
 */
export const AGENT_MALLOC_ENV: readonly { readonly name: string; readonly value: string }[] = [
  { name: 'MALLOC_ARENA_MAX', value: '2' },
  { name: 'MALLOC_MMAP_THRESHOLD_', value: '131072' },
  { name: 'MALLOC_TRIM_THRESHOLD_', value: '131072' },
];

/** What the agent's Deployment runs. */
export interface AgentDeploymentSpec {
  namespace: string;
  labels: Record<string, string>;
  image: string;
  replicas: number;
  /** The agent's flags (`agentArgs` writes them in `AGENT_FLAGS` order). */
  flags: AgentFlagText;
  /** Its environment takes GROUNDWORK_GIT_* and GROUNDWORK_WEBHOOK_SECRET from `CREDENTIALS_SECRET`. */
  credentials: boolean;
}

/**
 * The agent's Deployment: `groundwork agent` with `flags` as its arguments, non-root with a
 * read-only root filesystem and no capabilities, its caches on emptyDirs, probed on
 * `/readyz` and `/healthz`. Pure.
 */
export function agentDeployment(spec: AgentDeploymentSpec): K8sObject {
  const secretEnv = (env: string, key: string) => ({
    name: env,
    valueFrom: { secretKeyRef: { name: CREDENTIALS_SECRET, key, optional: true } },
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: AGENT_NAME, namespace: spec.namespace, labels: spec.labels },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: AGENT_POD_LABELS },
      template: {
        metadata: { labels: spec.labels },
        spec: {
          serviceAccountName: AGENT_NAME,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'agent',
              image: spec.image,
              args: ['agent', ...agentArgs(spec.flags)],
              env: [
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                { name: 'GROUNDWORK_CACHE_DIR', value: '/cache' },
                { name: 'HOME', value: '/tmp' },
                ...AGENT_MALLOC_ENV,
                ...(spec.credentials
                  ? [
                      secretEnv('GROUNDWORK_GIT_TOKEN', 'token'),
                      secretEnv('GROUNDWORK_GIT_USERNAME', 'username'),
                      secretEnv('GROUNDWORK_GIT_PASSWORD', 'password'),
                      secretEnv('GROUNDWORK_WEBHOOK_SECRET', 'webhookSecret'),
                    ]
                  : []),
              ],
              ports: [{ name: 'http', containerPort: AGENT_HTTP_PORT }],
              readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 10 },
              livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 20 },
              resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '1Gi' } },
              securityContext: RESTRICTED_CONTAINER,
              volumeMounts: cacheAndTmp().volumeMounts,
            },
          ],
          volumes: cacheAndTmp().volumes,
        },
      },
    },
  };
}
