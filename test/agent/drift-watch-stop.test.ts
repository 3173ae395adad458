import { describe, expect, it } from 'vitest';
import { DriftWatch } from '../../src/agent/drift-watch.js';
import type { KubeClient } from '../../src/cluster/client.js';
import type { Discovery } from '../../src/cluster/discovery.js';

describe('DriftWatch.stop', () => {
  it('starts no watch for a kind whose discovery answers after stop() (a watch would outlive the agent)', async () => {
    let answer: (info: unknown) => void = () => {};
    const discovery = {
      tryResolve: () => new Promise((resolve) => (answer = resolve)),
    } as unknown as Discovery;
    // The client is never used: a request on it would fail the test.
    const client = new Proxy({}, { get: () => () => Promise.reject(new Error('no request expected')) });
    const watch = new DriftWatch(client as KubeClient, discovery, {
      onChanges: () => {},
      onResync: () => {},
    });
    const tracking = watch.track([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } },
    ]);
    watch.stop();
    answer({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
    await tracking;
    expect(watch.kinds).toEqual([]);
  });
});
