import { describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { clusterVersionHook } from '../../src/cluster-version/version-hook.js';
import { ANNOTATIONS } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { useCluster } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-absent-cv' });
const REV = 'main@sha1:0000000000000000000000000000000000000021';

describe('the cluster-version stage on a cluster without a ClusterVersion', () => {
  it('is pending, not ready: nothing will update the cluster', async () => {
    const s = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }), {
      inventoryNamespace: cluster.namespace,
    });
    // A unique name: the ClusterVersion is cluster-scoped and the control plane is shared.
    const cv: K8sObject = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: cluster.namespace, annotations: { [ANNOTATIONS.targetVersion]: '4.16.3' } },
      spec: { channel: 'stable-4.16' },
    };
    const observed = await observeAndPlan(s, synthOf([cv], { overlay: 'plain' }), { revision: REV });
    expect(observed.plan.items[0]).toMatchObject({ action: 'skip', reason: 'NotCreatedByGroundwork' });
    const changes = await applyObserved(s, observed, {
      revision: REV,
      wait: false,
      hooks: { 'cluster-version': clusterVersionHook({ graphs: [] }) },
    });
    expect(changes.error).toBeUndefined();
    expect(changes.pending).toEqual([
      {
        stage: 'cluster-version',
        message: `ClusterVersion/${cluster.namespace}: not in the cluster (no cluster-version operator to update it)`,
      },
    ]);
    s.client.close();
  });
});
