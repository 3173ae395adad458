import { describe, expect, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';
import { configMap, synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-prune-guard' });
const REV = 'main@sha1:0000000000000000000000000000000000000002';

async function session(): Promise<ClusterSession> {
  return new ClusterSession(
    await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e' }),
    {
      inventoryNamespace: cluster.namespace,
    },
  );
}

async function reconcile(s: ClusterSession, objects: readonly K8sObject[], overlay: string) {
  const observed = await observeAndPlan(s, synthOf(objects, { overlay }), { revision: REV });
  const changes = await applyObserved(s, observed, {
    revision: REV,
    wait: false,
    prune: true,
    allowMassPrune: true,
  });
  return { observed, changes };
}

async function exists(s: ClusterSession, path: string): Promise<boolean> {
  return s.client.request('GET', path).then(
    () => true,
    (err: { status?: number }) => {
      if (err.status === 404) return false;
      throw err;
    },
  );
}

function crdOf(group: string): K8sObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  } as K8sObject;
}

describe('prune guards and namespace scope on the real control plane', () => {
  it('refuses to prune a Namespace that still holds objects git declares, in plan and in apply', async () => {
    const s = await session();
    const app = `${cluster.namespace}-app`;
    const ns: K8sObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: app } };
    const inside = [configMap(app, 'a', { x: '1' }), configMap(app, 'b', { y: '2' })];
    expect((await reconcile(s, [ns, ...inside], 'ns')).changes.error).toBeUndefined();

    // Only the Namespace leaves git.
    const { observed, changes } = await reconcile(s, inside, 'ns');
    const item = observed.plan.items.find((i) => i.ref.kind === 'Namespace')!;
    expect(item.action).toBe('skip');
    expect(item.reason).toBe('NamespaceInUse');
    expect(item.message).toContain('2 object(s)');
    expect(changes.counts.deleted).toBe(0);
    expect(await exists(s, `/api/v1/namespaces/${app}`)).toBe(true);
    expect(await exists(s, `/api/v1/namespaces/${app}/configmaps/a`)).toBe(true);

    // With its objects gone from git too, the Namespace is pruned.
    const last = await reconcile(s, [configMap(cluster.namespace, 'keep', { z: '1' })], 'ns');
    expect(last.observed.plan.items.find((i) => i.ref.kind === 'Namespace')?.action).toBe('prune');
    expect(last.changes.error).toBeUndefined();
    s.client.close();
  });

  it('refuses to prune a CRD while custom resources of its kind exist that this apply keeps', async () => {
    const s = await session();
    const group = `${cluster.namespace}.example.com`;
    const crd = crdOf(group);
    const gadget = (name: string): K8sObject =>
      ({
        apiVersion: `${group}/v1`,
        kind: 'Gadget',
        metadata: { name, namespace: cluster.namespace },
        spec: {},
      }) as K8sObject;
    expect((await reconcile(s, [crd, gadget('one')], 'crd')).changes.error).toBeUndefined();
    // A custom resource git never declared (made by a user or an operator).
    await s.client.request('POST', `/apis/${group}/v1/namespaces/${cluster.namespace}/gadgets`, {
      body: gadget('by-hand'),
    });

    const blocked = await reconcile(s, [gadget('one')], 'crd');
    const item = blocked.observed.plan.items.find((i) => i.ref.kind === 'CustomResourceDefinition')!;
    expect(item.action).toBe('skip');
    expect(item.reason).toBe('CrdInUse');
    expect(item.message).toContain(`Gadget/${cluster.namespace}/by-hand`);
    expect(await exists(s, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`)).toBe(
      true,
    );

    // The CRD and every resource of its kind leaving git together is fine once no other one exists.
    await s.client.request('DELETE', `/apis/${group}/v1/namespaces/${cluster.namespace}/gadgets/by-hand`);
    const gone = await reconcile(s, [configMap(cluster.namespace, 'other', { a: '1' })], 'crd');
    expect(
      gone.observed.plan.items
        .filter((i) => i.action === 'prune')
        .map((i) => i.ref.kind)
        .sort(),
    ).toEqual(['CustomResourceDefinition', 'Gadget']);
    expect(gone.changes.error).toBeUndefined();
    s.client.close();
  });

  it('catches a namespaced object without a namespace at plan, sends nothing and records nothing', async () => {
    const s = await session();
    const orphan: K8sObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'no-namespace' },
      data: {},
    };
    const { observed, changes } = await reconcile(
      s,
      [orphan, configMap(cluster.namespace, 'fine', { a: '1' })],
      'scope',
    );
    const item = observed.plan.items.find((i) => i.ref.name === 'no-namespace')!;
    expect(item.problem?.code).toBe('NamespaceMissing');
    expect(item.problem?.message).toContain('set metadata.namespace on test/ConfigMap/no-namespace');
    expect(observed.plan.problems).toHaveLength(1);
    expect(changes.entries.find((r) => r.ref.name === 'no-namespace')?.action).toBe('failed');
    expect(changes.counts.created).toBe(1);
    const inventory = await s.inventory.read('test', 'scope');
    expect([...(inventory?.objects ?? [])].some((id) => id.includes('no-namespace'))).toBe(false);
    s.client.close();
  });
});
