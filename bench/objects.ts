/** The small ConfigMap every engine benchmark tool writes (kubectl, the raw loop, Groundwork). */
export function benchConfigMap(ns: string, i: number) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: ns, labels: { app: 'bench' } },
    data: { index: String(i), payload: 'x'.repeat(64) },
  };
}

/**
 * One application of the mixed platform (7 namespaced objects of the kinds a platform team ships
 * for each component): ServiceAccount, Role, RoleBinding, ConfigMap, Secret, Deployment, Service.
 */
export function benchApp(ns: string, i: number) {
  const name = `app-${i}`;
  const labels = { app: name, 'app.kubernetes.io/part-of': 'bench' };
  const meta = { name, namespace: ns, labels };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta,
      rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [name], verbs: ['get', 'watch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: ns }],
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta,
      data: { 'app.properties': `name=${name}\nreplicas=1\n` },
    },
    { apiVersion: 'v1', kind: 'Secret', metadata: meta, type: 'Opaque', stringData: { token: `token-${i}` } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            serviceAccountName: name,
            containers: [
              {
                name: 'app',
                image: `registry.invalid/bench/app:1.${i % 10}`,
                ports: [{ containerPort: 8080 }],
                envFrom: [{ configMapRef: { name } }],
                resources: { requests: { cpu: '10m', memory: '32Mi' } },
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta,
      spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  ];
}

/** A one-object change: the first ConfigMap's data differs. */
export function changeFirstConfigMap<T extends { kind: string }>(objects: readonly T[], value: string): T[] {
  const at = objects.findIndex((o) => o.kind === 'ConfigMap');
  return objects.map((o, i) => (i === at ? { ...o, data: { changed: value } } : o));
}
