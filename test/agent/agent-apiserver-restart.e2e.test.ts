import { afterAll, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import { eventually, useCluster, useDedicatedControlPlane } from '../harness/cluster.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';

// A control plane of its own: its apiserver is restarted mid-apply.
const dedicated = useDedicatedControlPlane();
const cluster = useCluster({ namespacePrefix: 'gw-restart', controlPlane: dedicated });
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of stops.reverse()) await s().catch(() => undefined);
});

describe('the agent and an apiserver restart', () => {
  it('converges after the apiserver restarts in the middle of an apply', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`r${ns.slice(-6)}`);
    stops.push(() => repo.stop());
    const items = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`cm-${String(i).padStart(3, '0')}`, String(i)]),
    );
    await repo.publish({ namespace: ns, items }, {}, 'many objects');
    const agent = await startAgent(agentOptions(cluster, repo, { log: memoryLogger().log }));
    stops.push(() => agent.stop());
    const count = async () => {
      const list = await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps`,
      );
      return list.items.map((i) => i.metadata.name).filter((n) => n.startsWith('cm-'));
    };
    await eventually(
      async () => ((await count()).length > 20 ? true : undefined),
      30_000,
      'the apply under way',
    );
    await dedicated.controlPlane.restartApiserver({ downMs: 1000 });
    const names = await eventually(
      async () => {
        const n = await count();
        return n.length === 300 ? n : undefined;
      },
      90_000,
      'convergence after the restart',
    );
    expect(new Set(names).size).toBe(300);
    await eventually(
      async () =>
        agent.runner()?.lastResult?.failure === undefined && agent.runner()!.cycles > 1 ? true : undefined,
      30_000,
      'a clean cycle',
    );
  });
});
