import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { idOf } from '../../src/core/object-id.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { ClusterDashboardSource } from '../../src/ui/cluster-source.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { configMap, synthOf } from '../harness/engine.js';

/**
 * The dashboard's cluster source against the real apiserver: an inventory that appears after it
 * started is tracked, even while page requests rebuild the snapshot all the time (they once took
 * the change before the source's own check saw it, so the new kinds were never watched and the
 * object page said "not in the cluster" for good).
 */
const cluster = useCluster({ namespacePrefix: 'gw-ui-source' });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
});

describe('ClusterDashboardSource', () => {
  it('watches the objects of an inventory written after it started, while pages read it every millisecond', async () => {
    const ns = cluster.namespace;
    const source = new ClusterDashboardSource(cluster.client, { namespace: ns, inventoryNamespace: ns });
    await source.start();
    cleanups.push(() => source.stop());
    // Page requests, as fast as a busy dashboard makes them.
    const reader = setInterval(() => source.snapshot(), 1);
    cleanups.push(() => clearInterval(reader));

    const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig });
    cleanups.push(() => client.close());
    const session = new ClusterSession(client, { inventoryNamespace: ns });
    const object = configMap(ns, 'late', { value: '1' });
    const REV = 'main@sha1:4444444444444444444444444444444444444444';
    const plan = await observeAndPlan(session, synthOf([object], { overlay: 'o' }), { revision: REV });
    expect((await applyObserved(session, plan, { revision: REV, wait: false })).error).toBeUndefined();

    const id = idOf(object);
    await eventually(
      async () => (source.snapshot().objects.some((o) => o.id === id) ? true : undefined),
      15_000,
      'the inventory row',
    );
    await eventually(async () => (source.detail(id)?.live ? true : undefined), 15_000, 'the live object');
    expect(source.detail(id)!.live!.metadata.name).toBe('late');
  });
});
