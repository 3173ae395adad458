/**
 * Kinds of the real manifest sets (test/fixtures/real-manifests) that live in a namespace; the
 * rest are cluster-scoped. Argo CD's install.yaml leaves the namespace to `kubectl apply -n
 * argocd`, so the benchmark and the e2e test write it in.
 */
export const NAMESPACED_KINDS: ReadonlySet<string> = new Set([
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ConfigMap',
  'Secret',
  'Service',
  'Deployment',
  'StatefulSet',
  'NetworkPolicy',
]);

/** The objects with `namespace` written into the namespaced ones, after the Namespace itself. */
export function inNamespace<T extends { kind: string; metadata: object }>(
  objects: readonly T[],
  namespace: string,
): (T | { apiVersion: string; kind: string; metadata: { name: string } })[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    ...objects.map((o) =>
      NAMESPACED_KINDS.has(o.kind) ? { ...o, metadata: { ...o.metadata, namespace } } : o,
    ),
  ];
}
