// Issue 32, item 1: a hand-made object in a namespace the platform manages kept the sync
// Ready=False DriftDetected forever. The agent now reports such objects only when groundwork.yaml
// asks (`unmanaged:`), as counts in status.unmanaged, and counts them as drift only with failOn.
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';

const cluster = useCluster({ namespacePrefix: 'gw-unmanaged' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface Status {
  lastAppliedRevision?: string;
  conditions?: { type: string; status: string; reason: string }[];
  drift?: { extra: number; items: { object: string; type: string }[] };
  unmanaged?: {
    count: number;
    failOn: boolean;
    counts: { namespace: string; kind: string; count: number }[];
  };
}

describe('the agent and objects it did not apply', () => {
  it('stays Ready with a hand-made ConfigMap, reports it when asked, and counts it as drift only with failOn', async () => {
    const ns = cluster.namespace;
    const name = `u${ns.slice(-6)}`;
    const repo = await platformRepo(name);
    cleanups.push(() => repo.stop());
    await cluster.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { metadata: { name: 'handmade' }, data: { b: '2' } },
    });
    const yaml = (unmanaged: string) =>
      `name: ${name}\nentry: platform/main.ts\noverlays: overlays\ndefaultOverlay: test\n${unmanaged}`;
    const first = await repo.publish({ namespace: ns, items: { a: '1' } }, { 'groundwork.yaml': yaml('') });
    const agent = await startAgent(
      agentOptions(cluster, repo, { mode: 'self-heal', log: memoryLogger().log }),
    );
    cleanups.push(() => agent.stop());
    const status = () =>
      cluster.client
        .request<{ status?: Status }>(
          'GET',
          `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs/${name}-test`,
        )
        .then((o) => o.status)
        .catch(() => undefined);
    const ready = (s: Status | undefined) => s?.conditions?.find((c) => c.type === 'Ready');
    const at = (sha: string, check: (s: Status) => boolean) => async () => {
      const s = await status();
      return s?.lastAppliedRevision?.endsWith(sha) && check(s) ? s : undefined;
    };

    // Not asked: no report, no drift, Ready.
    const plain = await eventually(
      at(first, (s) => ready(s)?.status === 'True'),
      60_000,
      'Ready at the first commit',
    );
    expect(plain.drift).toBeUndefined();
    expect(plain.unmanaged).toBeUndefined();

    // Asked: the ConfigMap is counted (the agent's inventory ConfigMap in the same namespace is not), still Ready.
    const second = await repo.publish(
      { namespace: ns, items: { a: '1' } },
      { 'groundwork.yaml': yaml(`unmanaged:\n  namespaces: [${ns}]\n`) },
    );
    const listed = await eventually(
      at(second, (s) => s.unmanaged !== undefined),
      60_000,
      'status.unmanaged',
    );
    expect(listed.unmanaged).toEqual({
      count: 1,
      failOn: false,
      counts: [{ namespace: ns, kind: 'ConfigMap', count: 1 }],
    });
    expect(ready(listed)).toMatchObject({ status: 'True' });
    expect(listed.drift).toBeUndefined();

    // failOn: it is extra drift and the sync is not Ready; self-heal does not delete it.
    const third = await repo.publish(
      { namespace: ns, items: { a: '1' } },
      { 'groundwork.yaml': yaml(`unmanaged:\n  namespaces: [${ns}]\n  failOn: true\n`) },
    );
    const failing = await eventually(
      at(third, (s) => ready(s)?.reason === 'DriftDetected'),
      60_000,
      'DriftDetected with failOn',
    );
    expect(failing.drift).toMatchObject({
      extra: 1,
      items: [{ object: `ConfigMap/${ns}/handmade`, type: 'extra' }],
    });
    expect(failing.unmanaged).toMatchObject({ count: 1, failOn: true });
    await cluster.client.request('GET', `/api/v1/namespaces/${ns}/configmaps/handmade`);
  });
});
