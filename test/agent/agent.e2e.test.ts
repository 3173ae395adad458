import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../src/agent/start.js';
import type { K8sObject } from '../../src/core/object.js';
import { auditedWrites, auditOffset, eventually, useCluster } from '../harness/cluster.js';
import { listRequests } from '../../src/cluster/list.js';
import { memoryLogger, platformRepo, type PlatformRepo } from '../harness/agent-repo.js';
import { agentOptions } from '../harness/agent-run.js';

const cluster = useCluster({ namespacePrefix: 'gw-agent' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function setup(
  opts: {
    mode?: 'detect-only' | 'self-heal';
    values?: Record<string, string>;
    secret?: string;
    fullPlanEveryMs?: number;
  } = {},
) {
  const ns = cluster.namespace;
  const repo = await platformRepo(`p${ns.slice(-6)}`);
  cleanups.push(() => repo.stop());
  await repo.publish(
    {
      namespace: ns,
      items: opts.values ?? { a: '1', b: '2' },
      ...(opts.secret ? { secret: opts.secret } : {}),
    },
    {},
    'first',
  );
  const logs = memoryLogger();
  const start = () =>
    startAgent(
      agentOptions(cluster, repo, {
        mode: opts.mode ?? 'self-heal',
        log: logs.log,
        debounceMs: 50,
        ...(opts.fullPlanEveryMs !== undefined ? { fullPlanEveryMs: opts.fullPlanEveryMs } : {}),
      }),
    );
  const agent = await start();
  cleanups.push(() => agent.stop());
  return { ns, repo, agent, logs, start };
}

const cm = (ns: string, name: string) =>
  cluster.client.request<K8sObject & { data: Record<string, string> }>(
    'GET',
    `/api/v1/namespaces/${ns}/configmaps/${name}`,
  );
const exists = (ns: string, name: string) =>
  cm(ns, name).then(
    () => true,
    () => false,
  );

async function syncStatus(ns: string, repo: PlatformRepo) {
  const list = await cluster.client.request<{
    items: {
      metadata: { name: string };
      status?: {
        conditions?: { type: string; status: string; reason: string; message: string }[];
        lastAppliedRevision?: string;
        lastAppliedCommit?: { subject: string; author: string };
        drift?: { drifted: number };
      };
    }[];
  }>('GET', `/apis/groundwork.io/v1alpha1/namespaces/${ns}/platformsyncs`);
  void repo;
  return list.items[0]?.status;
}

const condition = (status: Awaited<ReturnType<typeof syncStatus>>, type: string) =>
  status?.conditions?.find((c) => c.type === type);

/** Each completed cycle in the agent's log (its `cycle` and `revision applied` lines): when it started, and its timings. */
function cyclesLogged(text: string): { startedAt: number; plan?: number }[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map(
      (line) => JSON.parse(line) as { msg?: string; time: number; ms?: number; timings?: { plan?: number } },
    )
    .filter((l) => (l.msg === 'cycle' || l.msg === 'revision applied') && l.timings && l.ms !== undefined)
    .map((l) => ({ startedAt: l.time - l.ms!, ...l.timings }));
}

describe('the sync agent against a real git smart-HTTP server', () => {
  it('applies a pushed commit', async () => {
    const { ns, repo } = await setup();
    await eventually(
      async () => ((await exists(ns, 'a')) && (await exists(ns, 'b')) ? true : undefined),
      30_000,
      'first revision applied',
    );
    // The message is the repository's text: HTML in it is kept as text (the dashboard escapes it).
    const sha = await repo.publish(
      { namespace: ns, items: { a: '1', b: '2', c: '3' } },
      {},
      'add c <img src=x onerror=alert(1)>\n\nthe body stays in git',
    );
    await eventually(
      async () => ((await exists(ns, 'c')) ? true : undefined),
      30_000,
      'pushed commit applied',
    );
    const status = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        return s?.lastAppliedRevision === `main@sha1:${sha}` && condition(s, 'Ready')?.status === 'True'
          ? s
          : undefined;
      },
      30_000,
      'Ready at the new revision',
    );
    expect(status.lastAppliedRevision).toBe(`main@sha1:${sha}`);
    expect(status.lastAppliedCommit).toEqual({
      subject: 'add c <img src=x onerror=alert(1)>',
      author: 'Groundwork Test',
    });
  });

  it('stays on the last good revision and goes Stalled with the construct path when a commit does not compile or fails validation; nothing is pruned', async () => {
    const { ns, repo } = await setup({ values: { a: '1', b: '2' } });
    const good = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        return condition(s, 'Ready')?.status === 'True' ? s?.lastAppliedRevision : undefined;
      },
      30_000,
      'first revision Ready',
    );

    // A commit that does not compile (and would drop b if it did).
    await repo.publish(
      { namespace: ns, items: { a: '1' } },
      {
        'platform/main.ts':
          'export default definePlatform({ values: z.object({}), build(scope) { new Platform(scope, \n',
      },
      'broken syntax',
    );
    const stalled = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        return condition(s, 'Stalled')?.status === 'True' ? s : undefined;
      },
      30_000,
      'Stalled on the broken commit',
    );
    expect(condition(stalled, 'Stalled')?.reason).toBe('SynthFailed');
    expect(stalled.lastAppliedRevision).toBe(good);
    // Said plainly, first (issue 32, item 7): what the agent still does while no commit renders.
    expect(condition(stalled, 'Ready')?.message).toMatch(
      /^newest commit main@sha1:[0-9a-f]{40} failed to render: the cluster stays at main@sha1:[0-9a-f]{40} and drift from it is still healed; nothing newer is applied or pruned until a commit renders\. /,
    );
    expect(condition(stalled, 'Ready')?.message).toContain(`stays at ${good} `);
    expect(await exists(ns, 'b')).toBe(true);

    // A commit that compiles but fails validation: the construct path names the operator.
    await repo.publish({ namespace: ns, items: { a: '1' }, approval: 'manual' }, {}, 'bad approval');
    const invalid = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        const c = condition(s, 'Stalled');
        return c?.status === 'True' && c.message.includes('platform/op') ? s : undefined;
      },
      30_000,
      'Stalled with the construct path',
    );
    expect(condition(invalid, 'Stalled')?.message).toMatch(/approval/);
    expect(invalid.lastAppliedRevision).toBe(good);
    expect(await exists(ns, 'b')).toBe(true);
  });

  it('backs off while the git server is down, prunes nothing, and recovers when it returns', async () => {
    const { ns, repo } = await setup();
    await eventually(
      async () => ((await exists(ns, 'b')) ? true : undefined),
      30_000,
      'first revision applied',
    );
    await repo.server.stop();
    const down = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        return condition(s, 'Ready')?.reason === 'FetchFailed' ? s : undefined;
      },
      30_000,
      'FetchFailed reported',
    );
    expect(condition(down, 'Ready')?.status).toBe('False');
    expect(await exists(ns, 'a')).toBe(true);
    expect(await exists(ns, 'b')).toBe(true);
    await repo.server.restart();
    await repo.publish({ namespace: ns, items: { a: '1', b: '2', d: '4' } }, {}, 'after the outage');
    await eventually(
      async () => ((await exists(ns, 'd')) ? true : undefined),
      60_000,
      'recovered after the outage',
    );
  });

  it('reports an out-of-band edit in detect-only mode, and leaves it', async () => {
    // Every cycle plans in full (no quiet cycles), so each one after the edit could revert it.
    const { ns, repo, logs } = await setup({ mode: 'detect-only', fullPlanEveryMs: 0 });
    await eventually(
      async () => (condition(await syncStatus(ns, repo), 'Ready')?.status === 'True' ? true : undefined),
      30_000,
      'Ready',
    );
    const audited = auditOffset();
    const live = await cm(ns, 'a');
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...live, data: { value: 'edited' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    const editedAt = Date.now();
    const event = await eventually(
      async () => {
        const events = await cluster.client.request<{
          items: { reason: string; note: string; regarding: { name: string } }[];
        }>('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
        return events.items.find((e) => e.reason === 'DriftDetected' && e.regarding.name === 'a');
      },
      10_000,
      'a DriftDetected event',
    );
    expect(event.note).toContain('kubectl-edit');
    const status = await eventually(
      async () => {
        const s = await syncStatus(ns, repo);
        return s?.drift?.drifted === 1 ? s : undefined;
      },
      10_000,
      'drift in the status',
    );
    expect(condition(status, 'Ready')?.reason).toBe('DriftDetected');
    // The agent had its chance: the drift watch checked the object, and a cycle that started after
    // the edit planned in full (its log line). Neither wrote to the object (the audit log).
    await eventually(
      async () =>
        cyclesLogged(logs.text()).some((c) => c.startedAt >= editedAt && c.plan !== undefined)
          ? true
          : undefined,
      30_000,
      'a full cycle after the edit',
    );
    const writes = auditedWrites(audited, 'groundwork-agent').filter(
      (w) => w.uri.split('?')[0] === `/api/v1/namespaces/${ns}/configmaps/a`,
    );
    expect(writes).toEqual([]);
    expect((await cm(ns, 'a')).data.value).toBe('edited');
  });

  it('restores an out-of-band edit in self-heal mode', async () => {
    const { ns, repo } = await setup({ mode: 'self-heal' });
    await eventually(
      async () => (condition(await syncStatus(ns, repo), 'Ready')?.status === 'True' ? true : undefined),
      30_000,
      'Ready',
    );
    const live = await cm(ns, 'a');
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
      body: { ...live, data: { value: 'edited' } },
      query: { fieldManager: 'kubectl-edit' },
    });
    await eventually(
      async () => ((await cm(ns, 'a')).data.value === '1' ? true : undefined),
      10_000,
      'the edit restored',
    );
    // The Events are written after the fix, in the background: wait for them, then check both.
    const reasons = await eventually(
      async () => {
        const events = await cluster.client.request<{ items: { reason: string }[] }>(
          'GET',
          `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
        );
        const seen = events.items.map((e) => e.reason);
        return seen.includes('DriftCorrected') ? seen : undefined;
      },
      10_000,
      'a DriftCorrected event',
    );
    expect(reasons).toEqual(expect.arrayContaining(['DriftDetected', 'DriftCorrected']));
  });

  it('never shows a repository secret value in logs, Events, the status object or drift reports', async () => {
    const secret = 'pa55-VALUE-never-to-be-seen';
    const { ns, repo, logs } = await setup({ mode: 'detect-only', secret });
    await eventually(
      async () => (condition(await syncStatus(ns, repo), 'Ready')?.status === 'True' ? true : undefined),
      30_000,
      'Ready',
    );
    // Drift on the Secret itself: its value changes behind git's back.
    const live = await cluster.client.request<K8sObject>('GET', `/api/v1/namespaces/${ns}/secrets/creds`);
    const other = 'other-SECRET-value-42';
    await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/secrets/creds`, {
      body: { ...live, data: { token: Buffer.from(other).toString('base64') } },
    });
    await eventually(
      async () => ((await syncStatus(ns, repo))?.drift?.drifted ? true : undefined),
      10_000,
      'Secret drift reported',
    );
    const events = JSON.stringify(
      await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`),
    );
    const status = JSON.stringify(await syncStatus(ns, repo));
    for (const text of [logs.text(), events, status]) {
      for (const value of [
        secret,
        other,
        Buffer.from(secret).toString('base64'),
        Buffer.from(other).toString('base64'),
      ]) {
        expect(text).not.toContain(value);
      }
    }
    expect(events).toContain('DriftDetected');
  });
});

describe('agent processes', () => {
  it('resumes idempotently after being killed mid-stage', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`k${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    const items = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`cm-${String(i).padStart(3, '0')}`, String(i)]),
    );
    await repo.publish({ namespace: ns, items }, {}, 'many objects');
    const opts = {
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      mode: 'self-heal' as const,
      intervalMs: 500,
      namespace: ns,
      kubeconfig: cluster.kubeconfig,
      cacheDir: `${repo.repo.workDir}-cache`,
      log: memoryLogger().log,
    };
    const first = await startAgent(opts);
    // Kill it as soon as part of the stage is written.
    await eventually(
      async () => {
        const list = await cluster.client.request<{ items: unknown[] }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps`,
        );
        return list.items.length > 10 ? true : undefined;
      },
      30_000,
      'the apply under way',
    );
    await first.stop();
    const partial = (
      await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps`,
      )
    ).items.filter((i) => i.metadata.name.startsWith('cm-')).length;
    const second = await startAgent(opts);
    cleanups.push(() => second.stop());
    const names = await eventually(
      async () => {
        const list = await cluster.client.request<{ items: { metadata: { name: string } }[] }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps`,
        );
        const n = list.items.map((i) => i.metadata.name).filter((x) => x.startsWith('cm-'));
        return n.length === 150 ? n : undefined;
      },
      60_000,
      'all objects after the restart',
    );
    expect(partial).toBeLessThanOrEqual(150);
    expect(new Set(names).size).toBe(150);
    await eventually(
      async () => (condition(await syncStatus(ns, repo), 'Ready')?.status === 'True' ? true : undefined),
      30_000,
      'Ready after resuming',
    );
  });

  it('runs two agents of which exactly one acts, and the standby takes over when the leader goes', async () => {
    const ns = cluster.namespace;
    const repo = await platformRepo(`h${ns.slice(-6)}`);
    cleanups.push(() => repo.stop());
    await repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'first');
    const opts = (id: string) => ({
      repository: { url: repo.url, ref: { branch: 'main' } },
      overlay: 'test',
      mode: 'self-heal' as const,
      intervalMs: 500,
      namespace: ns,
      syncName: 'ha',
      kubeconfig: cluster.kubeconfig,
      cacheDir: `${repo.repo.workDir}-cache-${id}`,
      log: memoryLogger().log,
      leaderElection: { identity: id, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 },
    });
    const one = await startAgent(opts('one'));
    const two = await startAgent(opts('two'));
    cleanups.push(
      () => one.stop(),
      () => two.stop(),
    );
    await eventually(
      async () => (one.isLeader() !== two.isLeader() ? true : undefined),
      15_000,
      'exactly one leader',
    );
    const [leader, standby] = one.isLeader() ? [one, two] : [two, one];
    expect(standby.runner()).toBeUndefined();
    await eventually(async () => ((await exists(ns, 'a')) ? true : undefined), 30_000, 'the leader applies');
    await leader.stop();
    await eventually(async () => (standby.isLeader() ? true : undefined), 10_000, 'the standby takes over');
    await repo.publish({ namespace: ns, items: { a: '1', b: '2' } }, {}, 'second');
    await eventually(
      async () => ((await exists(ns, 'b')) ? true : undefined),
      30_000,
      'the new leader applies',
    );
  });

  it('reads its managed kinds from watch-fed caches: no-op cycles make no LIST of them', async () => {
    const { ns, agent } = await setup({ fullPlanEveryMs: 0 });
    await eventually(
      async () => ((await exists(ns, 'a')) && (await exists(ns, 'b')) ? true : undefined),
      30_000,
    );
    const runner = () => agent.runner()!;
    // Two more cycles: the caches of the managed kinds start after a cycle and fill.
    const start = runner().cycles;
    await eventually(async () => (runner().cycles >= start + 2 ? true : undefined), 30_000);
    const before = listRequests.count;
    const from = runner().cycles;
    await eventually(async () => (runner().cycles >= from + 3 ? true : undefined), 30_000);
    // Every cycle re-plans (fullPlanEveryMs 0); with the managed kinds cached, none of them LISTs.
    expect(runner().agent.state.timings.plan).toBeDefined();
    expect(listRequests.count - before).toBe(0);
    // Reads still see the truth: an out-of-band change is corrected (drift watch, then the cycle).
    await cluster.client.request('DELETE', `/api/v1/namespaces/${ns}/configmaps/b`);
    await eventually(async () => ((await exists(ns, 'b')) ? true : undefined), 30_000);
  });

  it('skips planning while git and the watched objects are unchanged, and plans again after a change', async () => {
    const { ns, agent } = await setup();
    await eventually(
      async () => ((await exists(ns, 'a')) && (await exists(ns, 'b')) ? true : undefined),
      30_000,
    );
    const runner = () => agent.runner()!;
    // Each completed cycle: did it plan, or find everything as the last quiet cycle left it?
    const seen: ('planned' | 'unchanged')[] = [];
    let counted = runner().cycles;
    const poll = setInterval(() => {
      if (runner().cycles === counted) return;
      counted = runner().cycles;
      seen.push(runner().agent.state.timings.unchanged ? 'unchanged' : 'planned');
    }, 5);
    try {
      await eventually(
        async () => (seen.slice(-3).every((s) => s === 'unchanged') && seen.length >= 3 ? true : undefined),
        30_000,
        'quiet cycles',
      );
      const quiet = seen.length;
      // An out-of-band edit: the drift watch restores it, and the next cycle plans in full again.
      const live = await cm(ns, 'a');
      await cluster.client.request('PUT', `/api/v1/namespaces/${ns}/configmaps/a`, {
        body: { ...live, data: { ...live.data, value: 'edited' } },
        query: { fieldManager: 'kubectl-edit' },
      });
      await eventually(
        async () => (seen.slice(quiet).includes('planned') ? true : undefined),
        30_000,
        'a full plan after the edit',
      );
      await eventually(
        async () => (seen.at(-1) === 'unchanged' && seen.length > quiet + 1 ? true : undefined),
        30_000,
        'quiet again',
      );
      expect((await cm(ns, 'a')).data).toEqual(live.data);
    } finally {
      clearInterval(poll);
    }
  });
});
