import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groundwork } from '../harness/cli.js';
import { useCluster } from '../harness/cluster.js';
import { platformRepo, type PlatformRepo } from '../harness/agent-repo.js';
import { platformDir } from '../harness/platform-dir.js';

const cluster = useCluster({ namespacePrefix: 'gw-cli-prune' });
const repos: PlatformRepo[] = [];

function run(args: string[], cwd: string) {
  return groundwork(args, { cwd, env: { KUBECONFIG: cluster.kubeconfig } });
}

afterAll(async () => Promise.all(repos.map((r) => r.stop())));

describe('a prune guard refusal through the CLI', () => {
  it('shows in plan, prints one summary line in apply, deletes nothing and exits 3', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`p${ns.slice(-6)}`);
    repos.push(repo);
    const dir = repo.repo.workDir;
    const items = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, k]));
    await repo.publish({ namespace: ns, items }, {}, 'five');
    expect((await run(['apply', '--prune', '--no-wait'], dir)).code).toBe(0);

    // 4 of 5 leave git: 80% > the 30% guard.
    await repo.publish({ namespace: ns, items: { a: 'a' } }, {}, 'one');
    const plan = await run(['plan'], dir);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain(
      'Prune would be refused (TooManyPrunes): would prune 4 of 5 inventory objects',
    );

    const apply = await run(['apply', '--prune', '--no-wait'], dir);
    expect(apply.code).toBe(3);
    const refusalLines = apply.stdout.split('\n').filter((l) => l.includes('TooManyPrunes'));
    expect(refusalLines).toHaveLength(1);
    expect(refusalLines[0]).toContain('4 object(s) kept');
    const left = await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps`,
    );
    expect(
      left.items
        .map((c) => c.metadata.name)
        .filter((n) => n.length === 1)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

/** A CRD (left out with `dropCrd`) and one custom resource of its kind, in `ns`. */
const WIDGETS = (ns: string) => `import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ dropCrd: z.boolean().optional() }),
  build(scope, v) {
    const p = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    if (!v.dropCrd) new ApiObject(p, 'crd', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.${ns}.example.com' },
      spec: { group: '${ns}.example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } });
    new ApiObject(p, 'w', { apiVersion: '${ns}.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: '${ns}' }, spec: { size: 1 } });
  },
});
`;

describe('a prune skip through the CLI', () => {
  it('apply --prune names a CRD kept because its custom resources stay (CrdInUse), counts it skipped and exits 3', async () => {
    const ns = cluster.namespace;
    const dir = platformDir(WIDGETS(ns), { name: `crd-${ns.slice(-6)}` });
    const crd = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${ns}.example.com`;
    try {
      expect((await run(['apply', '--prune', '--no-wait', '--dir', dir], dir)).code).toBe(0);
      writeFileSync(join(dir, 'overlays/dev.yaml'), '{ "dropCrd": true }\n');
      const plan = await run(['plan', '--dir', dir], dir);
      expect(plan.stdout).toMatch(/CustomResourceDefinition\/widgets\S+ +skip \(CrdInUse\)/);

      const apply = await run(['apply', '--prune', '--no-wait', '--dir', dir], dir);
      expect(apply.stdout).toMatch(
        /skipped +CustomResourceDefinition\/widgets\.\S+ \(CrdInUse\): not pruned: 1 custom resource\(s\) of its kind exist/,
      );
      expect(apply.stdout).toContain('0 deleted, 1 skipped, 0 failed');
      expect(apply.code).toBe(3);
      expect((await cluster.client.request<{ metadata: { name: string } }>('GET', crd)).metadata.name).toBe(
        `widgets.${ns}.example.com`,
      );
    } finally {
      await cluster.client.request('DELETE', crd).catch(() => undefined);
    }
  }, 120_000);
});
