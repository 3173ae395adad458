// A platform mixing an operator-free ApiObject, a Helm chart with subcharts and CRDs, and a
// Kustomize base, applied to the real local control plane and planned again: zero changes.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groundwork } from '../../harness/cli.js';
import { useCluster } from '../../harness/cluster.js';
import { platformDir } from '../../harness/platform-dir.js';
import { useTools } from '../../harness/tools.js';

useTools('helm', 'kustomize');

const cluster = useCluster({ namespacePrefix: 'gw-charts' });
const CHARTS = fileURLToPath(new URL('../../fixtures/charts', import.meta.url));

function repo(ns: string, replicas: number): string {
  const dir = platformDir(
    `import { ApiObject, definePlatform, HelmChart, Kustomization, Platform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ replicas: z.number() }),
  build(scope, values) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(platform, 'marker', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'marker', namespace: '${ns}' }, data: { a: 'b' } });
    // The chart's crds/ holds an apiextensions.k8s.io/v1beta1 CRD, which Kubernetes 1.22 stopped serving.
    new HelmChart(platform, 'sub', { chart: 'charts/subchart', namespace: '${ns}', includeCrds: false, values: { subchartb: { enabled: true } } });
    new HelmChart(platform, 'widgets', { chart: 'widgets', namespace: '${ns}' });
    new Kustomization(platform, 'greeter', { dir: 'deploy/greeter' });
  },
});
`,
    {
      name: `charts-${ns.slice(-6)}`,
      files: {
        'overlays/dev.yaml': `replicas: ${replicas}\n`,
        // A chart whose crds/ defines the kind its template uses: the CRD stage comes first.
        'widgets/Chart.yaml': 'apiVersion: v2\nname: widgets\nversion: 1.0.0\n',
        'widgets/crds/widget.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.${ns}.example.com
spec:
  group: ${ns}.example.com
  scope: Namespaced
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`,
        'widgets/templates/widget.yaml': `apiVersion: ${ns}.example.com/v1\nkind: Widget\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  size: 1\n`,
        'deploy/greeter/kustomization.yaml': `namespace: ${ns}\nresources:\n  - ../../charts/kustomize/base\nreplicas:\n  - name: greeter\n    count: ${replicas}\n`,
      },
    },
  );
  cpSync(CHARTS, join(dir, 'charts'), { recursive: true });
  return dir;
}

interface PlanJson {
  counts: Record<string, number>;
  items: { id: string; action: string }[];
}

describe('Helm charts and Kustomize bases on the real control plane', () => {
  it('apply creates the charts (subcharts; a CRD from crds/ before its custom resource) and the base objects, and a second plan has nothing to do; a values change updates one object', async () => {
    const ns = cluster.namespace;
    const dir = repo(ns, 0);
    const env = { KUBECONFIG: cluster.kubeconfig };
    try {
      const apply = await groundwork(['apply', '--no-wait', '--dir', dir], { env, cwd: dir });
      expect(apply.stdout + apply.stderr).not.toMatch(/✖/);
      expect(apply.code).toBe(0);
      for (const path of [
        `/api/v1/namespaces/${ns}/services/subcharta`,
        `/api/v1/namespaces/${ns}/services/subchartb`,
        `/apis/apps/v1/namespaces/${ns}/deployments/greeter`,
        `/apis/${ns}.example.com/v1/namespaces/${ns}/widgets/widgets`,
      ])
        expect(
          ((await cluster.client.request('GET', path)) as { metadata: { name: string } }).metadata.name,
        ).toBeTruthy();

      const again = await groundwork(['plan', '--dir', dir, '-o', 'json'], { env, cwd: dir });
      expect(again.code).toBe(0);
      const plan = JSON.parse(again.stdout) as PlanJson;
      expect(plan.items.filter((i) => i.action !== 'unchanged')).toEqual([]);
      expect(plan.counts.unchanged).toBeGreaterThanOrEqual(10);

      writeFileSync(join(dir, 'overlays/dev.yaml'), 'replicas: 0\n');
      writeFileSync(
        join(dir, 'deploy/greeter/kustomization.yaml'),
        `namespace: ${ns}\nresources:\n  - ../../charts/kustomize/base\nreplicas:\n  - name: greeter\n    count: 2\n`,
      );
      const changed = JSON.parse(
        (await groundwork(['plan', '--dir', dir, '-o', 'json'], { env, cwd: dir })).stdout,
      ) as PlanJson;
      expect(changed.items.filter((i) => i.action !== 'unchanged')).toEqual(
        [{ id: `${ns}_greeter_apps_Deployment`, action: 'update' }].map((x) => expect.objectContaining(x)),
      );
    } finally {
      await cluster.client
        .request(
          'DELETE',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${ns}.example.com`,
        )
        .catch(() => undefined);
    }
  }, 180_000);
});
