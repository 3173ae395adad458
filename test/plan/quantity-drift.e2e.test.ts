import { describe, expect, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { driftOf } from '../../src/reconcile/drift-of.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-quantity' });
const REV = 'main@sha1:0000000000000000000000000000000000000003';

function deployment(ns: string): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: ns },
    spec: {
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: {
          containers: [{ name: 'c', image: 'nginx', resources: { limits: { memory: '90Mi', cpu: '500m' } } }],
        },
      },
    },
  } as K8sObject;
}

describe('equal quantities written differently', () => {
  it('are no difference in the diff against the dry-run (90Mi patched to 94371840 by another writer)', async () => {
    const s = new ClusterSession(await KubeClient.load({ kubeconfig: cluster.kubeconfig }), {
      inventoryNamespace: cluster.namespace,
    });
    const synth = synthOf([deployment(cluster.namespace)], { overlay: 'q' });
    const first = await observeAndPlan(s, synth, { revision: REV });
    expect((await applyObserved(s, first, { revision: REV, wait: false })).error).toBeUndefined();

    // The same values as plain numbers, written through a JSON patch as a person or script would.
    await cluster.client.request('PATCH', `/apis/apps/v1/namespaces/${cluster.namespace}/deployments/api`, {
      body: [
        {
          op: 'replace',
          path: '/spec/template/spec/containers/0/resources/limits/memory',
          value: '94371840',
        },
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/limits/cpu', value: '0.5' },
        // A real change too, so that the plan must ask the server (a dry-run) and diff live against it.
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:edited' },
      ],
      contentType: 'application/json-patch+json',
      query: { fieldManager: 'kubectl-patch' },
    });
    const live = await cluster.client.request<
      K8sObject & {
        spec: { template: { spec: { containers: { resources: { limits: Record<string, string> } }[] } } };
      }
    >('GET', `/apis/apps/v1/namespaces/${cluster.namespace}/deployments/api`);
    // The server keeps the new spelling: the texts differ, the values do not.
    expect(live.spec.template.spec.containers[0]!.resources.limits.memory).toBe('94371840');
    // The deployment controller answers the new image with revision 2; wait for it, or its write can
    // land between the plan's read and its dry-run and show up as a difference of its own.
    await eventually(
      async () => {
        const d = await cluster.client.request<K8sObject>(
          'GET',
          `/apis/apps/v1/namespaces/${cluster.namespace}/deployments/api`,
        );
        return d.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2' ? true : undefined;
      },
      30_000,
      'the deployment controller records revision 2',
    );

    const again = await observeAndPlan(s, synth, { revision: REV });
    const [item] = again.plan.items;
    expect(item?.action).toBe('update');
    // Only the image: the quantities are equal by value.
    expect(item?.diff.map((d) => d.path)).toEqual(['/spec/template/spec/containers/0/image']);
    expect(driftOf(again).flatMap((d) => d.fields.map((f) => f.path))).toEqual([
      '/spec/template/spec/containers/0/image',
    ]);
    s.client.close();
  });
});
