/** The small ConfigMap every engine benchmark tool writes (kubectl, the raw loop, Groundwork). */
export function benchConfigMap(ns: string, i: number) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: ns, labels: { app: 'bench' } },
    data: { index: String(i), payload: 'x'.repeat(64) },
  };
}
