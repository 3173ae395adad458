import type { K8sObject } from '../core/object.js';
import { AGENT_POD_LABELS, RESTRICTED_CONTAINER, cacheAndTmp } from './agent-deployment.js';

/** The renderer's name: its ServiceAccount, Deployment, Service and NetworkPolicy. */
export const RENDERER_NAME = 'groundwork-renderer';

/** The port `groundwork renderer` serves on in its pod. */
export const RENDERER_PORT = 8443;

/** The renderer's pods, as its Deployment, Service and NetworkPolicy (and the agent's egress) select them. */
export const RENDERER_POD_LABELS = {
  'app.kubernetes.io/name': 'groundwork',
  'app.kubernetes.io/component': 'renderer',
};

/** The agent's `--renderer` for the renderer of `namespace`: its Service's cluster DNS name. */
export function rendererUrl(namespace: string): string {
  return `http://${RENDERER_NAME}.${namespace}.svc:${RENDERER_PORT}`;
}

/**
 * The renderer pod (issue 31; docs/security.md): everything that executes or interprets repository
 * content runs here, with nothing to steal. A ServiceAccount bound to nothing, its token never
 * mounted (`automountServiceAccountToken: false` on both); a Deployment of `groundwork renderer`
 * (the agent's image) with no Secret volume and no environment from a Secret or ConfigMap,
 * non-root, no capabilities, a read-only root filesystem with emptyDirs for `/tmp` and its cache,
 * a memory limit (the render's heap cap is sized from it), `GROUNDWORK_RENDERER_POD=1` (isolation
 * mode `pod`: the pod is the boundary); a Service on `RENDERER_PORT`; and a NetworkPolicy that
 * denies all egress (`Egress` with no rule) and admits only the agent's pods on that port. Pure.
 */
export function rendererObjects(opts: {
  namespace: string;
  labels: Record<string, string>;
  image: string;
}): K8sObject[] {
  const { namespace } = opts;
  const labels = { ...opts.labels, ...RENDERER_POD_LABELS };
  const metadata = () => ({ name: RENDERER_NAME, namespace, labels: { ...labels } });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata(), automountServiceAccountToken: false },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: metadata(),
      spec: {
        replicas: 1,
        selector: { matchLabels: RENDERER_POD_LABELS },
        template: {
          metadata: { labels: { ...labels } },
          spec: {
            serviceAccountName: RENDERER_NAME,
            automountServiceAccountToken: false,
            enableServiceLinks: false,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: 'renderer',
                image: opts.image,
                args: ['renderer', '--bind', '0.0.0.0', '--port', String(RENDERER_PORT)],
                env: [
                  { name: 'GROUNDWORK_RENDERER_POD', value: '1' },
                  { name: 'GROUNDWORK_CACHE_DIR', value: '/cache' },
                  { name: 'HOME', value: '/tmp' },
                ],
                ports: [{ name: 'render', containerPort: RENDERER_PORT }],
                readinessProbe: { httpGet: { path: '/healthz', port: 'render' }, periodSeconds: 10 },
                livenessProbe: { httpGet: { path: '/healthz', port: 'render' }, periodSeconds: 20 },
                resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '1536Mi' } },
                securityContext: RESTRICTED_CONTAINER,
                volumeMounts: cacheAndTmp().volumeMounts,
              },
            ],
            volumes: cacheAndTmp('2Gi').volumes,
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: metadata(),
      spec: {
        selector: RENDERER_POD_LABELS,
        ports: [{ name: 'render', port: RENDERER_PORT, targetPort: 'render' }],
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: metadata(),
      spec: {
        podSelector: { matchLabels: RENDERER_POD_LABELS },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [
          {
            from: [{ podSelector: { matchLabels: AGENT_POD_LABELS } }],
            ports: [{ protocol: 'TCP', port: RENDERER_PORT }],
          },
        ],
        egress: [],
      },
    },
  ];
}
