import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { KubeClient } from '../../src/cluster/client.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { configMap, synthOf } from '../harness/engine.js';

// Its own control plane: restarting the shared one would disturb every other test file.
let cp: LocalControlPlane;
beforeAll(async () => {
  cp = await LocalControlPlane.start();
}, 120_000);
afterAll(async () => {
  await cp?.stop();
});

describe('apiserver restart mid-apply', () => {
  it('leaves a partial change set, and a re-run converges with nothing duplicated or lost', async () => {
    const session = new ClusterSession(await KubeClient.load({ kubeconfig: cp.info.kubeconfig, retries: 1 }));
    await session.client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'restart' } } });
    const objects = Array.from({ length: 400 }, (_, i) =>
      configMap('restart', `cm-${String(i).padStart(3, '0')}`, { i: String(i) }),
    );
    const synth = synthOf(objects, { overlay: 'restart' });
    const revision = 'main@sha1:00000000000000000000000000000000000000aa';

    let restarting: Promise<void> | undefined;
    const first = await applyObserved(session, await observeAndPlan(session, synth, { revision }), {
      revision,
      wait: false,
      concurrency: 4,
      listener: (e) => {
        if (e.type === 'object' && e.done === 60 && !restarting)
          restarting = cp.restartApiserver({ downMs: 1500 });
      },
    });
    await restarting;
    expect(restarting).toBeDefined();
    expect(first.error).toBeDefined();
    expect(first.counts.created).toBeGreaterThanOrEqual(60);
    expect(first.counts.created).toBeLessThan(400);

    const session2 = new ClusterSession(await KubeClient.load({ kubeconfig: cp.info.kubeconfig }));
    const observed = await observeAndPlan(session2, synth, { revision });
    expect(observed.plan.counts.unchanged).toBe(first.counts.created);
    const second = await applyObserved(session2, observed, { revision, wait: false });
    expect(second.error).toBeUndefined();
    expect(second.counts.created + second.counts.unchanged).toBe(400);

    const list = await session2.client.request<{ items: { metadata: { name: string } }[] }>(
      'GET',
      '/api/v1/namespaces/restart/configmaps',
    );
    const names = list.items.map((i) => i.metadata.name).filter((n) => n.startsWith('cm-'));
    expect(names).toHaveLength(400);
    expect(new Set(names).size).toBe(400);
    const inventory = await session2.inventory.read('test', 'restart');
    expect(inventory?.objects.size).toBe(400);
    const third = await observeAndPlan(session2, synth, { revision });
    expect(third.plan.hasChanges).toBe(false);
    session.client.close();
    session2.client.close();
  });
});
