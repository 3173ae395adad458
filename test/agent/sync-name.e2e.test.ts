import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';

const cluster = useCluster({ namespacePrefix: 'gw-sync-name' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface SyncList {
  items: { metadata: { name: string }; status?: { conditions?: { type: string; reason: string }[] } }[];
}

describe('the PlatformSync name', () => {
  it('comes from groundwork.yaml from the first cycle, even when the first revision does not synthesize', async () => {
    const ns = cluster.namespace;
    const name = `p${ns.slice(-6)}`;
    const repo = await platformRepo(name);
    cleanups.push(() => repo.stop());
    // The first revision fails validation: no synth result ever names the platform.
    await repo.publish({ namespace: ns, items: { a: '1' }, approval: 'manual' }, {}, 'broken first');
    const agent = await startAgent(
      agentOptions(cluster, repo, { mode: 'detect-only', log: memoryLogger().log }),
    );
    cleanups.push(() => agent.stop());
    const list = () =>
      cluster.client.request<SyncList>('GET', `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs`);
    const stalled = await eventually(
      async () => {
        const items = (await list()).items;
        return items.some((i) => i.status?.conditions?.some((c) => c.reason === 'SynthFailed'))
          ? items
          : undefined;
      },
      30_000,
      'a status reporting the failed synth',
    );
    expect(stalled.map((i) => i.metadata.name)).toEqual([`${name}-test`]);

    // Fixed: the same object goes Ready; no second, differently named object appears.
    await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'fixed');
    const ready = await eventually(
      async () => {
        const items = (await list()).items;
        return items.some((i) =>
          i.status?.conditions?.some((c) => c.type === 'Ready' && c.reason !== 'SynthFailed'),
        )
          ? items
          : undefined;
      },
      30_000,
      'the status after the fix',
    );
    expect(ready.map((i) => i.metadata.name)).toEqual([`${name}-test`]);
  });
});
