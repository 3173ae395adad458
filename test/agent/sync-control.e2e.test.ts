// `groundwork sync suspend|resume|status` against a running agent on the real control plane, and the
// same suspend written by hand as `kubectl annotate` would write it (a merge patch of annotations).
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import type { K8sObject } from '../../src/core/object.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { memoryLogger, platformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';
import { groundwork } from '../harness/cli.js';

const cluster = useCluster({ namespacePrefix: 'gw-sync' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface Sync {
  metadata: { name: string; annotations?: Record<string, string> };
  status?: {
    conditions?: { type: string; status: string; reason: string; message: string }[];
    lastAppliedRevision?: string;
    drift?: { drifted: number };
    suspended?: { reason: string; by?: string };
    history?: { revision: string; trigger?: string }[];
  };
}

async function sync(ns: string): Promise<Sync | undefined> {
  const list = await cluster.client.request<{ items: Sync[] }>(
    'GET',
    `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs`,
  );
  return list.items[0];
}
const ready = (s: Sync | undefined) => s?.status?.conditions?.find((c) => c.type === 'Ready');

const cm = (ns: string, name: string) =>
  cluster.client.request<K8sObject & { data: Record<string, string> }>(
    'GET',
    `/api/v1/namespaces/${ns}/configmaps/${name}`,
  );

async function edit(ns: string, name: string, value: string): Promise<void> {
  const live = await cm(ns, name);
  await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/${name}`, {
    body: { ...live, data: { value } },
    query: { fieldManager: 'kubectl-edit' },
  });
}

async function setup(intervalMs = 500) {
  const ns = cluster.namespace;
  const repo = await platformRepo(`p${ns.slice(-6)}`);
  cleanups.push(() => repo.stop());
  await repo.publish({ namespace: ns, items: { a: '1', b: '2' } }, {}, 'first');
  const logs = memoryLogger();
  const start = () =>
    startAgent(agentOptions(cluster, repo, { mode: 'self-heal', log: logs.log, debounceMs: 50, intervalMs }));
  const agent = await start();
  cleanups.push(() => agent.stop());
  const s = await eventually(
    async () => (ready(await sync(ns))?.status === 'True' ? sync(ns) : undefined),
    30_000,
    'Ready',
  );
  return { ns, repo, agent, start, name: s!.metadata.name };
}

const cli = (args: string[]) =>
  groundwork(['sync', ...args, '--namespace', cluster.namespace, '--kubeconfig', cluster.kubeconfig]);

describe('groundwork sync suspend / resume / status', () => {
  it('suspend holds an out-of-band edit as reported drift; resume corrects it', async () => {
    const { ns, repo } = await setup();
    const suspended = await cli(['suspend', '--reason', 'incident 42']);
    expect(suspended.stderr).toBe('');
    expect(suspended.code).toBe(0);
    // The apiserver says who: the test's admin user.
    const s = await eventually(
      async () => ((await sync(ns))?.status?.suspended ? sync(ns) : undefined),
      15_000,
      'suspended in the status',
    );
    expect(s!.status!.suspended!.reason).toBe('incident 42');
    expect(s!.status!.suspended!.by).toBeTruthy();
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'Suspended' });

    await edit(ns, 'a', 'edited');
    await eventually(
      async () => ((await sync(ns))?.status?.drift?.drifted === 1 ? true : undefined),
      15_000,
      'drift reported while suspended',
    );
    // Several cycles (0.5 s interval) and the drift watch had their chance: the edit stays.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await cm(ns, 'a')).data.value).toBe('edited');
    // A new revision is not applied either.
    await repo.publish({ namespace: ns, items: { a: '1', b: '3' } }, {}, 'second');
    await new Promise((r) => setTimeout(r, 2000));
    expect((await cm(ns, 'b')).data.value).toBe('2');

    const status = await cli(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('suspended by');
    expect(status.stdout).toContain('incident 42');
    expect(status.stdout).toContain('Ready=False Suspended');

    const resumed = await cli(['resume']);
    expect(resumed.code).toBe(0);
    await eventually(
      async () => ((await cm(ns, 'a')).data.value === '1' ? true : undefined),
      15_000,
      'the edit corrected after resume',
    );
    await eventually(
      async () => ((await cm(ns, 'b')).data.value === '3' ? true : undefined),
      15_000,
      'the new revision applied after resume',
    );
    await eventually(
      async () =>
        ready(await sync(ns))?.status === 'True' && !(await sync(ns))?.status?.suspended ? true : undefined,
      15_000,
      'Ready again',
    );
  });

  it('suspend returns once the agent holds, even between cycles a minute apart: an edit right after it stays (issue 32, item 7)', async () => {
    const { ns } = await setup(60_000);
    const suspended = await cli(['suspend', '--reason', 'hotfix', '--timeout', '30s']);
    expect(suspended.stderr).toBe('');
    expect(suspended.code).toBe(0);
    expect(suspended.stdout).toContain('Held: the agent confirmed it applies and heals nothing');
    // Confirmed means written: no waiting here.
    const s = await sync(ns);
    expect(s?.status?.suspended?.reason).toBe('hotfix');
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'Suspended' });
    // The hotfix at once: the drift watch (which heals within a second when not suspended) leaves it.
    await edit(ns, 'a', 'hotfix');
    await eventually(
      async () => ((await sync(ns))?.status?.drift?.drifted === 1 ? true : undefined),
      15_000,
      'the hotfix reported as drift',
    );
    await new Promise((r) => setTimeout(r, 2000));
    expect((await cm(ns, 'a')).data.value).toBe('hotfix');
  });

  it('suspend says so and exits 2 when no agent confirms it within --timeout; --no-wait only asks', async () => {
    const { ns, agent } = await setup();
    await agent.stop();
    const unanswered = await cli(['suspend', '--timeout', '2s']);
    expect(unanswered.code).toBe(2);
    expect(unanswered.stderr).toContain('it may still apply and heal');
    expect(unanswered.stderr).toContain('no agent confirmed it within 2s');
    const asked = await cli(['suspend', '--no-wait', '--reason', 'later']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Requested: the agent holds once it reads it');
    const annotations = (await sync(ns))?.metadata.annotations ?? {};
    expect(annotations['groundwork.io/suspend']).toBe('later');
  });

  it('the same suspend by hand (a merge patch of annotations, as kubectl annotate), with garbage that must not crash the agent', async () => {
    const { ns, name, agent } = await setup();
    const patch = (annotations: Record<string, string | null>) =>
      cluster.client.request('PATCH', `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs/${name}`, {
        body: { metadata: { annotations } },
        contentType: 'application/merge-patch+json',
      });
    await patch({
      'groundwork.io/suspend': `maintenance\n${'x'.repeat(50_000)}`,
      'groundwork.io/suspended-by': '\u001b[2Jbob',
      'groundwork.io/suspended-at': 'not a time',
    });
    const s = await eventually(
      async () => ((await sync(ns))?.status?.suspended ? sync(ns) : undefined),
      15_000,
      'suspended by annotation',
    );
    expect(s!.status!.suspended!.reason.startsWith('maintenance x')).toBe(true);
    expect(s!.status!.suspended!.reason.length).toBeLessThanOrEqual(256);
    expect(s!.status!.suspended!.by).toBe('[2Jbob');
    await edit(ns, 'a', 'edited');
    await eventually(
      async () => ((await sync(ns))?.status?.drift?.drifted === 1 ? true : undefined),
      15_000,
      'drift reported',
    );
    await new Promise((r) => setTimeout(r, 2000));
    expect((await cm(ns, 'a')).data.value).toBe('edited');
    expect(agent.runner()?.lastResult?.failure).toBeUndefined();

    await patch({
      'groundwork.io/suspend': null,
      'groundwork.io/suspended-by': null,
      'groundwork.io/suspended-at': null,
    });
    await eventually(
      async () => ((await cm(ns, 'a')).data.value === '1' ? true : undefined),
      15_000,
      'corrected after the annotation is removed',
    );
  });

  it('history lists the applied revisions with counts and timings, and survives an agent restart', async () => {
    const { ns, repo, agent, start } = await setup();
    const first = (await sync(ns))!.status!.lastAppliedRevision!;
    const sha = await repo.publish({ namespace: ns, items: { a: '1', b: '3', c: '4' } }, {}, 'second');
    await eventually(
      async () => ((await sync(ns))?.status?.lastAppliedRevision === `main@sha1:${sha}` ? true : undefined),
      30_000,
      'second revision applied',
    );
    await agent.stop();
    const again = await start();
    cleanups.push(() => again.stop());
    await eventually(
      async () => ((again.runner()?.cycles ?? 0) > 0 ? true : undefined),
      30_000,
      'a cycle after restart',
    );
    const r = await cli(['history', '--output', 'json']);
    expect(r.stderr).toBe('');
    const { history } = JSON.parse(r.stdout) as {
      history: {
        revision: string;
        outcome: string;
        trigger?: string;
        counts?: Record<string, number>;
        timings?: Record<string, number>;
      }[];
    };
    // Newest first; the restarted agent's first cycle on the same revision adds no entry.
    // The first revision came with the agent's start, the second with its interval.
    expect(history.map((h) => [h.revision, h.outcome, h.trigger])).toEqual([
      [`main@sha1:${sha}`, 'applied', 'interval'],
      [first, 'applied', 'start'],
    ]);
    expect(history[0]!.counts).toMatchObject({ created: 1, configured: 1 });
    expect(history[0]!.timings?.apply).toBeGreaterThanOrEqual(0);
    const text = await cli(['history']);
    expect(text.stdout.split('\n')[0]).toMatch(
      new RegExp(`applied  main@sha1:${sha}  trigger: interval  objects: .*created 1`),
    );
  });

  it("reconcile asks for a cycle now and returns the new revision's outcome", async () => {
    // Polls a minute apart: only the request can bring the new commit in within the test.
    const { ns, repo } = await setup(60_000);
    const sha = await repo.publish({ namespace: ns, items: { a: '1', b: '5' } }, {}, 'second');
    const asked = Date.now();
    const r = await cli(['reconcile', '--timeout', '30s']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`applied main@sha1:${sha}`);
    expect(r.stdout).toContain('Ready=True');
    expect(Date.now() - asked).toBeLessThan(20_000);
    expect((await cm(ns, 'b')).data.value).toBe('5');
    const stored = await sync(ns);
    expect(stored!.metadata.annotations?.['groundwork.io/reconcile-requested-at']).toBeTruthy();
    expect(stored!.status!.history![0]).toMatchObject({
      revision: `main@sha1:${sha}`,
      trigger: 'reconcile-request',
    });
    // --no-wait only asks.
    const quick = await cli(['reconcile', '--no-wait']);
    expect(quick.code).toBe(0);
    expect(quick.stdout).toContain('reconcile requested');
  });

  it('refuses names that are not object names, and says when there is no PlatformSync', async () => {
    const r = await cli(['suspend', '--sync', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope: not found');
    const none = await cli(['status']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no PlatformSync in this namespace');
    // A path instead of a name never reaches the apiserver as a path, and is not echoed.
    const hostile = await cli(['suspend', '--sync', '../../../../api/v1/namespaces/kube-system/secrets/x']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain('--sync: not a Kubernetes object name');
    expect(hostile.stderr).not.toContain('kube-system');
    const ns = await groundwork(['sync', 'status', '--namespace', 'a/b', '--kubeconfig', cluster.kubeconfig]);
    expect(ns.code).toBe(2);
    expect(ns.stderr).toContain('--namespace: not a Kubernetes object name');
  });
});
