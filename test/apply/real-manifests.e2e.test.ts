import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { applyObserved, ClusterSession, driftOf, observeAndPlan } from '../../src/agent/reconcile.js';
import { KubeClient } from '../../src/cluster/client.js';
import type { K8sObject } from '../../src/core/object.js';
import { parseObjects } from '../../src/core/yaml-files.js';
import { auditedWrites, auditOffset, useCluster } from '../harness/cluster.js';
import { synthOf } from '../harness/engine.js';

const cluster = useCluster({ namespacePrefix: 'gw-real' });
const REV = 'main@sha1:0000000000000000000000000000000000000005';
const FILE = new URL('../fixtures/real-manifests/ingress-nginx-v1.5.2.yaml', import.meta.url);
const ingressNginx = parseObjects(readFileSync(FILE, 'utf8'), 'ingress-nginx-v1.5.2.yaml');

async function session(): Promise<ClusterSession> {
  const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e-real' });
  return new ClusterSession(client, { inventoryNamespace: cluster.namespace });
}

afterAll(async () => {
  // Cluster-scoped objects (and the namespace) outlive the test's own namespace: remove them.
  for (const o of ingressNginx.filter((x) => !x.metadata.namespace)) {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    const plural = `${o.kind.toLowerCase()}${o.kind.endsWith('s') ? 'es' : 's'}`.replace(/ys$/, 'ies');
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    await cluster.client.request('DELETE', `${base}/${plural}/${o.metadata.name}`).catch(() => {});
  }
});

describe('re-planning real manifests (ingress-nginx v1.5.2)', () => {
  it('applies them, then re-plans with zero dry-runs and zero writes (minReadySeconds: 0, defaulted protocol, stringData)', async () => {
    const s = await session();
    // A Secret declared with stringData, as Argo CD's and many charts' are.
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'ingress-nginx-extra', namespace: 'ingress-nginx' },
      stringData: { token: 's3cr3t', 'config.yaml': 'a: 1\n' },
    } as K8sObject;
    const objects = [...ingressNginx, secret];
    const synth = synthOf(objects, { overlay: 'ingress' });
    const first = await observeAndPlan(s, synth, { revision: REV });
    const applied = await applyObserved(s, first, { revision: REV, wait: false });
    expect(applied.error).toBeUndefined();
    expect(applied.counts.created).toBe(objects.length);

    const offset = auditOffset();
    const again = await observeAndPlan(s, synth, { revision: REV });
    expect(again.plan.items.filter((i) => i.action !== 'unchanged').map((i) => i.id)).toEqual([]);
    expect(driftOf(again)).toEqual([]);
    const changes = await applyObserved(s, again, { revision: REV, wait: false });
    expect(changes.counts.unchanged).toBe(objects.length);
    // The audit log is the referee: not one dry-run (nor any other write) for the re-plan and re-apply.
    expect(auditedWrites(offset, 'groundwork-e2e-real', { includeDryRuns: true })).toEqual([]);
    s.client.close();
  });
});
