import { describe, expect, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { driftOf } from '../../src/reconcile/drift-of.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-create-only' });
const REV = 'main@sha1:0000000000000000000000000000000000000006';

function job(ns: string, image: string): K8sObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: ns, annotations: { 'groundwork.io/apply': 'create-only' } },
    spec: {
      ttlSecondsAfterFinished: 60,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'm', image }] } },
    },
  } as K8sObject;
}

describe('groundwork.io/apply: create-only', () => {
  it('creates a Job once, never updates it, and does not re-create it after its TTL deleted it', async () => {
    const s = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }), {
      inventoryNamespace: cluster.namespace,
    });
    const ns = cluster.namespace;
    const run = async (obj: K8sObject) => {
      const observed = await observeAndPlan(s, synthOf([obj], { overlay: 'once' }), { revision: REV });
      return { observed, changes: await applyObserved(s, observed, { revision: REV, wait: false }) };
    };
    const first = await run(job(ns, 'migrate:v1'));
    expect(first.changes.counts.created).toBe(1);

    // A changed template is not applied (a Job's template is immutable anyway) and is not drift.
    const changed = await run(job(ns, 'migrate:v2'));
    expect(changed.observed.plan.items[0]).toMatchObject({ action: 'skip', reason: 'CreateOnly' });
    expect(driftOf(changed.observed)).toEqual([]);
    expect(changed.changes.failed).toEqual([]);

    // The TTL controller deletes the finished Job (done by hand here: no job controller runs).
    await s.client.request('DELETE', `/apis/batch/v1/namespaces/${ns}/jobs/migrate`, {
      query: { propagationPolicy: 'Background' },
    });
    const after = await run(job(ns, 'migrate:v1'));
    expect(after.observed.plan.items[0]).toMatchObject({ action: 'skip', reason: 'CreateOnly' });
    expect(after.observed.plan.items[0]!.message).toContain('not re-created');
    expect(after.changes.counts.created).toBe(0);
    expect(driftOf(after.observed)).toEqual([]);
    const gone = await s.client.request('GET', `/apis/batch/v1/namespaces/${ns}/jobs/migrate`).then(
      () => false,
      (e: { status?: number }) => e.status === 404,
    );
    expect(gone).toBe(true);
    s.client.close();
  });
});
