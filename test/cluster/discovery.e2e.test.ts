import { afterAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { Discovery } from '../../src/cluster/discovery.js';
import { GroundworkError } from '../../src/core/errors.js';
import { useCluster } from '../harness/cluster.js';
import { configMap, synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-discovery' });

// metrics-server's APIService with no service behind it: the aggregator marks it Available=False and
// aggregated discovery lists the group version as `freshness: Stale` with no resources.
const APISERVICE = 'v1beta1.metrics.k8s.io';
const apiService = {
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name: APISERVICE },
  spec: {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { name: 'metrics-server', namespace: 'kube-system', port: 443 },
    insecureSkipTLSVerify: true,
    groupPriorityMinimum: 100,
    versionPriority: 100,
  },
};

interface AggregatedList {
  items?: {
    metadata: { name: string };
    versions: { version: string; freshness?: string; resources?: unknown[] }[];
  }[];
}

/** Waits until aggregated discovery lists metrics.k8s.io/v1beta1 as Stale (the aggregator's verdict). */
async function untilStale(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const doc = await cluster.client.request<AggregatedList>('GET', '/apis', {
      headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const group = doc.items?.find((g) => g.metadata.name === 'metrics.k8s.io');
    if (group?.versions.some((v) => v.version === 'v1beta1' && v.freshness === 'Stale' && !v.resources))
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('aggregated discovery never listed metrics.k8s.io/v1beta1 as Stale');
}

describe('discovery with an unavailable aggregated API (metrics-server without a pod)', () => {
  afterAll(async () => {
    await cluster.client
      .request('DELETE', `/apis/apiregistration.k8s.io/v1/apiservices/${APISERVICE}`)
      .catch(() => {});
  });

  it('skips the stale group, warns about it, and fails only for a kind that lives there', async () => {
    await cluster.client.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: apiService });
    await untilStale();

    const discovery = new Discovery(cluster.client);
    const kinds = await discovery.all();
    expect(kinds.some((k) => k.kind === 'ConfigMap')).toBe(true);
    expect(kinds.some((k) => k.group === 'metrics.k8s.io')).toBe(false);
    expect(discovery.unavailable()).toContain('metrics.k8s.io/v1beta1');

    await expect(discovery.resolve('v1', 'ConfigMap')).resolves.toMatchObject({ resource: 'configmaps' });
    const err = await discovery.resolve('metrics.k8s.io/v1beta1', 'PodMetrics').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GroundworkError);
    expect((err as GroundworkError).code).toBe('GroupUnavailable');
    expect((err as GroundworkError).fix).toContain('kubectl get apiservice v1beta1.metrics.k8s.io');
    // An inventory kind in the stale group is "cannot read", never "gone": nothing is pruned on a guess.
    await expect(discovery.resolveGroupKind('metrics.k8s.io', 'PodMetrics')).rejects.toMatchObject({
      code: 'GroupUnavailable',
    });
  });

  it('plans a platform of other kinds as usual and reports the unavailable API', async () => {
    await cluster.client
      .request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { body: apiService })
      .catch(() => {});
    await untilStale();
    const session = new ClusterSession(cluster.client, { inventoryNamespace: cluster.namespace });
    const synth = synthOf([configMap(cluster.namespace, 'a', { x: '1' })], { overlay: 'dev' });
    const observed = await observeAndPlan(session, synth, { revision: 'main@sha1:0' });
    expect(observed.plan.items.map((i) => `${i.ref.kind}/${i.ref.name}:${i.action}`)).toEqual([
      'ConfigMap/a:create',
    ]);
    expect(observed.unavailableApis).toEqual(['metrics.k8s.io/v1beta1']);
  });
});
