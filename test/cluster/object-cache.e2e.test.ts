import { afterEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/cluster/client.js';
import { Discovery } from '../../src/cluster/discovery.js';
import { KindCache, ObjectCacheSet, type KindCacheOptions } from '../../src/cluster/object-cache.js';
import { listAll } from '../../src/cluster/list.js';
import { expiredError } from '../../src/cluster/watch.js';
import { eventually, useCluster, useDedicatedControlPlane } from '../harness/cluster.js';

// Its own control plane: one test restarts the apiserver.
const dedicated = useDedicatedControlPlane();
const cluster = useCluster({ namespacePrefix: 'gw-cache', controlPlane: dedicated });
const UA = 'groundwork-cache-e2e';
const caches: KindCache[] = [];
afterEach(() => {
  for (const c of caches.splice(0)) c.stop();
});

/** Faults injected between the cache and the apiserver, on the cache's own client. */
interface Faults {
  /** Drop a watch event line, as if the watch had missed it. */
  dropLine?: (line: string) => boolean;
  /** Answer the next watch request with 410 Gone, as for an expired resourceVersion. */
  expireNextWatch?: boolean;
}

async function cacheOf(opts: KindCacheOptions = {}, faults: Faults = {}) {
  const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: UA });
  const info = await new Discovery(client).resolve('v1', 'ConfigMap');
  const stream = client.stream.bind(client);
  client.stream = async (path, query, onLine, signal) => {
    if (faults.expireNextWatch && query?.watch) {
      faults.expireNextWatch = false;
      throw expiredError(info, 'too old resource version (injected)');
    }
    return stream(path, query, (line) => (faults.dropLine?.(line) ? undefined : onLine(line)), signal);
  };
  const cache = new KindCache(client, info, opts);
  caches.push(cache);
  await cache.start();
  return { cache, client, info };
}

const put = (name: string, value: string) =>
  cluster.client.request('PATCH', `/api/v1/namespaces/${cluster.namespace}/configmaps/${name}`, {
    query: { fieldManager: 'e2e', force: true },
    contentType: 'application/apply-patch+yaml',
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: cluster.namespace },
      data: { value },
    },
  });

const valueIn = (cache: KindCache, name: string) =>
  (cache.get(`${cluster.namespace}_${name}__ConfigMap`)?.data as { value?: string } | undefined)?.value;

describe('the watch-fed object cache', () => {
  it('fills from one LIST, then follows creates, updates and deletes with no LIST at all', async () => {
    await put('a', '1');
    const { cache, client } = await cacheOf();
    expect(valueIn(cache, 'a')).toBe('1');
    await eventually(async () => (cache.healthy ? true : undefined));
    const getsBefore = client.counts.GET ?? 0;
    const expiredBefore = cache.stats.expired;
    await put('a', '2');
    await put('b', '1');
    await cluster.client.request('DELETE', `/api/v1/namespaces/${cluster.namespace}/configmaps/a`);
    await eventually(async () =>
      valueIn(cache, 'a') === undefined && valueIn(cache, 'b') === '1' ? true : undefined,
    );
    expect(cache.healthy).toBe(true);
    // No LIST while the watch runs; the only LISTs are relists after the server expired the watch
    // (a fresh apiserver can answer a watch from a just-listed resourceVersion with 410 Gone).
    // Every GET of this client is a LIST or a watch: each expiry costs one relist and one new watch.
    expect((client.counts.GET ?? 0) - getsBefore).toBe(2 * (cache.stats.expired - expiredBefore));
    expect(cache.stats.lists).toBe(1 + cache.stats.expired);
  });

  it('repairs a missed watch event at the next periodic resync', async () => {
    await put('missed', 'before');
    let drop = true;
    const { cache } = await cacheOf(
      { resyncMs: 1500 },
      { dropLine: (line) => drop && line.includes('"name":"missed"') },
    );
    await put('missed', 'after');
    await put('seen', 'x');
    await eventually(async () => (valueIn(cache, 'seen') === 'x' ? true : undefined));
    // The watch carried the change, the cache dropped it: stale until the resync.
    expect(valueIn(cache, 'missed')).toBe('before');
    drop = false;
    await eventually(async () => (valueIn(cache, 'missed') === 'after' ? true : undefined), 10_000);
    expect(cache.stats.resyncs).toBeGreaterThanOrEqual(1);
  });

  it('relists when its watch has expired (410 Gone), then watches again', async () => {
    await put('expiry', '1');
    const { cache } = await cacheOf({ retryMs: 200 }, { expireNextWatch: true });
    await eventually(async () => (cache.stats.expired >= 1 && cache.healthy ? true : undefined));
    expect(cache.stats.lists).toBe(1 + cache.stats.expired);
    await put('expiry', '2');
    await eventually(async () => (valueIn(cache, 'expiry') === '2' ? true : undefined));
  });

  it('comes back after an apiserver restart with nothing lost, and agrees with a fresh LIST', async () => {
    for (let i = 0; i < 20; i++) await put(`r-${i}`, 'before');
    const { cache, client, info } = await cacheOf({ retryMs: 200 });
    const restart = dedicated.controlPlane.restartApiserver({ downMs: 1500 });
    await eventually(async () => (cache.healthy ? undefined : true), 10_000);
    await restart;
    for (let i = 0; i < 20; i += 2) await put(`r-${i}`, 'after');
    await cluster.client.request('DELETE', `/api/v1/namespaces/${cluster.namespace}/configmaps/r-19`);
    await eventually(
      async () =>
        valueIn(cache, 'r-18') === 'after' && valueIn(cache, 'r-19') === undefined && cache.healthy
          ? true
          : undefined,
      30_000,
    );
    const fresh = await listAll(client, info, cluster.namespace);
    const view = (objs: { metadata: { name: string; resourceVersion?: string } }[]) =>
      objs.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
    expect(view(cache.objects(cluster.namespace))).toEqual(view(fresh));
    client.close();
  });

  it('has a fingerprint that holds while nothing it tracks changes, and moves when something does', async () => {
    const ns = cluster.namespace;
    const cm = (name: string, namespace = ns) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
    });
    await put('fp', '1');
    const elsewhere = (value: string) =>
      cluster.client.request('PATCH', `/api/v1/namespaces/${ns}-other/configmaps/unrelated`, {
        query: { fieldManager: 'e2e', force: true },
        contentType: 'application/apply-patch+yaml',
        body: { ...cm('unrelated', `${ns}-other`), data: { value } },
      });
    const client = await KubeClient.load({ kubeconfig: cluster.kubeconfig, userAgent: UA });
    const set = new ObjectCacheSet(client, new Discovery(client), {});
    try {
      // A kind the server does not serve is reported, so the caller tracks again later.
      expect(
        await set.track([cm('fp'), { apiVersion: 'example.com/v1', kind: 'Nope', metadata: { name: 'x' } }]),
      ).toBe(false);
      // The platform: the ConfigMap fp and the namespace it lives in.
      const platform = [cm('fp'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }];
      expect(await set.track(platform)).toBe(true);
      const first = await eventually(async () => set.fingerprint());
      // A Namespace and a ConfigMap in it that the platform does not declare: each watch delivers
      // its event (the caches hold them), and the fingerprint has not moved.
      const discovery = new Discovery(client);
      await cluster.client.request('POST', '/api/v1/namespaces', {
        body: { metadata: { name: `${ns}-other` } },
      });
      await elsewhere('1');
      await eventually(async () =>
        set.lookup(await discovery.resolve('v1', 'Namespace'))?.get(`_${ns}-other__Namespace`) &&
        set.lookup(await discovery.resolve('v1', 'ConfigMap'))?.get(`${ns}-other_unrelated__ConfigMap`)
          ? true
          : undefined,
      );
      expect(set.fingerprint()).toBe(first);
      // The tracked object changes: so does the fingerprint.
      await put('fp', '2');
      const second = await eventually(async () => {
        const now = set.fingerprint();
        return now !== undefined && now !== first ? now : undefined;
      });
      // So does a new object in the platform's namespace (it may be drift: not declared in git).
      await put('newcomer', '1');
      await eventually(async () => {
        const now = set.fingerprint();
        return now !== undefined && now !== second ? true : undefined;
      });
      // And a new kind.
      const before = set.fingerprint();
      await set.track([
        ...platform,
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } },
      ]);
      await eventually(async () => {
        const now = set.fingerprint();
        return now !== undefined && now !== before ? true : undefined;
      });
    } finally {
      set.stop();
      await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}-other`).catch(() => undefined);
    }
    // Stopped: nothing can be known unchanged.
    expect(set.fingerprint()).toBeUndefined();
    client.close();
  });
});
