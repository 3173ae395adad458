import { describe, expect, it } from 'vitest';
import { inventoryName } from '../../src/apply/inventory.js';
import { ClusterSession } from '../../src/reconcile/cluster-session.js';
import { observeAndPlan } from '../../src/reconcile/observe-and-plan.js';
import { applyObserved } from '../../src/reconcile/apply-observed.js';
import { driftOf } from '../../src/reconcile/drift-of.js';
import { KubeClient } from '../../src/cluster/client.js';
import { OWNER_ANNOTATION } from '../../src/core/annotations.js';
import type { K8sObject } from '../../src/core/object.js';
import { useCluster } from '../harness/cluster.js';
import { configMap, synthOf } from '../harness/engine.js';

// Issue 19 items 3 and 5: prune trusts the object's own ownership record, never the inventory
// list alone; an id that is not valid never wedges plan or apply.
const cluster = useCluster({ namespacePrefix: 'gw-prune-owner' });
const REV = 'main@sha1:0000000000000000000000000000000000000019';

async function session(warnings: string[] = []): Promise<ClusterSession> {
  return new ClusterSession(
    await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: 'groundwork-e2e' }),
    { inventoryNamespace: cluster.namespace, onWarning: (m) => warnings.push(m) },
  );
}

async function reconcile(
  s: ClusterSession,
  objects: readonly K8sObject[],
  opts: { overlay: string; platform?: string },
) {
  const observed = await observeAndPlan(s, synthOf(objects, opts), { revision: REV });
  const changes = await applyObserved(s, observed, {
    revision: REV,
    wait: false,
    prune: true,
    allowMassPrune: true,
  });
  return { observed, changes };
}

/** What someone who can only write ConfigMaps in the inventory namespace does: edit the id list. */
async function plantInInventory(overlay: string, ids: string[]): Promise<void> {
  const path = `/api/v1/namespaces/${cluster.namespace}/configmaps/${inventoryName('test', overlay)}`;
  const cm = await cluster.client.request<K8sObject & { data: Record<string, string> }>('GET', path);
  cm.data.objects = [cm.data.objects, ...ids].join('\n');
  await cluster.client.request('PUT', path, { body: cm, query: { fieldManager: 'attacker' } });
}

async function exists(path: string): Promise<boolean> {
  return cluster.client.request('GET', path).then(
    () => true,
    (err: { status?: number }) => {
      if (err.status === 404) return false;
      throw err;
    },
  );
}

const inventoryIds = async (s: ClusterSession, overlay: string) =>
  [...((await s.inventory.read('test', overlay))?.objects ?? [])].sort();

describe('prune deletes only what Groundwork owns (real control plane)', () => {
  it('keeps a ConfigMap and a Namespace planted in the inventory: skip (NotOwned), dropped; a normal prune still deletes', async () => {
    const s = await session();
    const ns = cluster.namespace;
    const victimNs = `${ns}-victim`;
    const victimCm = `victim-${ns}`;
    await cluster.client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: victimNs } } });
    await cluster.client.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap('default', victimCm, { precious: 'yes' }),
    });
    try {
      const first = await reconcile(s, [configMap(ns, 'a', { x: '1' }), configMap(ns, 'b', { y: '2' })], {
        overlay: 'own',
      });
      expect(first.changes.error).toBeUndefined();
      const applied = await cluster.client.request<K8sObject>('GET', `/api/v1/namespaces/${ns}/configmaps/a`);
      expect(applied.metadata.annotations?.[OWNER_ANNOTATION]).toBe(`${ns}/${inventoryName('test', 'own')}`);

      await plantInInventory('own', [`default_${victimCm}__ConfigMap`, `_${victimNs}__Namespace`]);
      const { observed, changes } = await reconcile(s, [configMap(ns, 'a', { x: '1' })], { overlay: 'own' });
      const notOwned = observed.plan.items.filter((i) => i.reason === 'NotOwned').map((i) => i.ref.name);
      expect(notOwned.sort()).toEqual([victimCm, victimNs].sort());
      expect(observed.plan.toString()).toMatch(
        new RegExp(`ConfigMap/default/${victimCm} +skip \\(NotOwned\\)`),
      );
      expect(observed.plan.toString()).toMatch(new RegExp(`Namespace/${victimNs} +skip \\(NotOwned\\)`));
      expect(changes.error).toBeUndefined();
      expect(changes.toString()).toContain(`skipped    ConfigMap/default/${victimCm} (NotOwned): not pruned`);
      expect(changes.counts).toMatchObject({ deleted: 1, skipped: 2 });
      expect(await exists(`/api/v1/namespaces/default/configmaps/${victimCm}`)).toBe(true);
      expect(await exists(`/api/v1/namespaces/${victimNs}`)).toBe(true);
      // The normal prune: `b` was Groundwork's and left git.
      expect(await exists(`/api/v1/namespaces/${ns}/configmaps/b`)).toBe(false);
      // The planted entries are forgotten: the next plan does not even look at them.
      expect(await inventoryIds(s, 'own')).toEqual([`${ns}_a__ConfigMap`]);
    } finally {
      await cluster.client
        .request('DELETE', `/api/v1/namespaces/default/configmaps/${victimCm}`)
        .catch(() => undefined);
      await cluster.client.request('DELETE', `/api/v1/namespaces/${victimNs}`).catch(() => undefined);
      s.client.close();
    }
  });

  it("never prunes another platform's object, even one Groundwork's field manager applied", async () => {
    const s = await session();
    const ns = cluster.namespace;
    expect(
      (await reconcile(s, [configMap(ns, 'mine', {})], { overlay: 'p1' })).changes.error,
    ).toBeUndefined();
    const other = await reconcile(s, [configMap(ns, 'theirs', { v: '1' })], { overlay: 'p2' });
    expect(other.changes.error).toBeUndefined();

    await plantInInventory('p1', [`${ns}_theirs__ConfigMap`]);
    const { observed, changes } = await reconcile(s, [configMap(ns, 'mine', {})], { overlay: 'p1' });
    const item = observed.plan.items.find((i) => i.ref.name === 'theirs')!;
    expect(item).toMatchObject({ action: 'skip', reason: 'NotOwned' });
    expect(item.message).toContain(`belongs to inventory "${ns}/${inventoryName('test', 'p2')}"`);
    expect(changes.counts.deleted).toBe(0);
    expect(await exists(`/api/v1/namespaces/${ns}/configmaps/theirs`)).toBe(true);
    s.client.close();
  });

  it('migration: an object applied before the annotation is pruned by its field manager, and stamped while desired', async () => {
    const s = await session();
    const ns = cluster.namespace;
    const victimNs = `${ns}-old`;
    // What an older Groundwork left: objects applied by field manager `groundwork`, no annotation.
    const oldApply = (obj: K8sObject, path: string) =>
      s.client.request('PATCH', path, {
        body: obj,
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: 'groundwork' },
      });
    const ns0: K8sObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: victimNs } };
    await oldApply(ns0, `/api/v1/namespaces/${victimNs}`);
    await oldApply(configMap(victimNs, 'kept', { k: '1' }), `/api/v1/namespaces/${victimNs}/configmaps/kept`);
    await oldApply(configMap(victimNs, 'gone', { g: '1' }), `/api/v1/namespaces/${victimNs}/configmaps/gone`);
    try {
      // Its inventory, as the older version wrote it.
      await s.inventory.write({
        platform: 'test',
        overlay: 'old',
        revision: REV,
        objects: new Set([
          `_${victimNs}__Namespace`,
          `${victimNs}_kept__ConfigMap`,
          `${victimNs}_gone__ConfigMap`,
        ]),
      });
      const desired = [ns0, configMap(victimNs, 'kept', { k: '1' })];
      const { observed, changes } = await reconcile(s, desired, { overlay: 'old' });
      const kept = observed.plan.items.find((i) => i.ref.name === 'kept')!;
      expect(kept.action).toBe('update');
      expect(kept.diff.map((d) => d.path)).toEqual(['/metadata/annotations']);
      expect(driftOf(observed)).toEqual([]); // bookkeeping, not drift
      expect(observed.plan.items.find((i) => i.ref.name === 'gone')?.action).toBe('prune');
      expect(changes.error).toBeUndefined();
      expect(await exists(`/api/v1/namespaces/${victimNs}/configmaps/gone`)).toBe(false);
      const stamped = await s.client.request<K8sObject>(
        'GET',
        `/api/v1/namespaces/${victimNs}/configmaps/kept`,
      );
      expect(stamped.metadata.annotations?.[OWNER_ANNOTATION]).toBe(`${ns}/${inventoryName('test', 'old')}`);
      const again = await observeAndPlan(s, synthOf(desired, { overlay: 'old' }), { revision: REV });
      expect(again.plan.hasChanges).toBe(false);
    } finally {
      await s.client.request('DELETE', `/api/v1/namespaces/${victimNs}`).catch(() => undefined);
      s.client.close();
    }
  });
});

describe('an invalid object id never wedges the engine (real control plane)', () => {
  it('Bad_Name!! fails to apply, is not recorded, and the next plan and apply work with no hand edit', async () => {
    const s = await session();
    const ns = cluster.namespace;
    const good = configMap(ns, 'good', { a: '1' });
    const failed = await reconcile(s, [good, configMap(ns, 'Bad_Name!!', { b: '2' })], { overlay: 'bad' });
    expect((failed.changes.error as { code?: string }).code).toBe('StageFailed');
    expect(failed.changes.entries.find((e) => e.ref.name === 'Bad_Name!!')?.action).toBe('failed');
    expect(await inventoryIds(s, 'bad')).toEqual([`${ns}_good__ConfigMap`]);

    // The name is fixed in git: plan and apply go on.
    const fixed = await reconcile(s, [good, configMap(ns, 'bad-name', { b: '2' })], { overlay: 'bad' });
    expect(fixed.changes.error).toBeUndefined();
    expect(fixed.changes.counts.created).toBe(1);
    expect(await inventoryIds(s, 'bad')).toEqual([`${ns}_bad-name__ConfigMap`, `${ns}_good__ConfigMap`]);
    s.client.close();
  });

  it('drops a bad id already in the inventory with a warning, and the next apply writes it out', async () => {
    const warnings: string[] = [];
    const s = await session(warnings);
    const ns = cluster.namespace;
    const good = configMap(ns, 'good', { a: '1' });
    expect(
      (await reconcile(s, [good, configMap(ns, 'old', {})], { overlay: 'planted' })).changes.error,
    ).toBeUndefined();
    // As an older version left it after `Bad_Name!!` failed.
    await plantInInventory('planted', [`${ns}_Bad_Name!!__ConfigMap`]);

    const { observed, changes } = await reconcile(s, [good], { overlay: 'planted' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `ignored 1 entry that is not a valid object id ("${ns}_Bad_Name!!__ConfigMap")`,
    );
    expect(observed.plan.items.find((i) => i.ref.name === 'old')?.action).toBe('prune');
    expect(changes.error).toBeUndefined();
    expect(changes.counts.deleted).toBe(1);

    const cm = await s.client.request<{ data: { objects: string } }>(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps/${inventoryName('test', 'planted')}`,
    );
    expect(cm.data.objects).toBe(`${ns}_good__ConfigMap`);
    await observeAndPlan(s, synthOf([good], { overlay: 'planted' }), { revision: REV });
    expect(warnings).toHaveLength(1);
    s.client.close();
  });
});
