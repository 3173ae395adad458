import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootstrapKubeconfig } from '../../src/hub/bootstrap-kubeconfig.js';
import { HubMember } from '../../src/hub/hub-member.js';
import { HUB_NAMESPACE, HUB_PATHS, LABELS } from '../../src/hub/hub-names.js';
import { issueBootstrap } from '../../src/hub/hub-token.js';
import { HUB_CREDENTIALS_SECRET } from '../../src/hub/member-credentials-store.js';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { syncStatus } from '../harness/agent-run.js';
import { groundwork } from '../harness/cli.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { runControlPlane } from '../harness/run-control-plane.js';
import { startHubController, stopProcess } from '../harness/hub.js';
import { startHubAgent, useHub } from '../harness/hub-agent.js';

// A real `groundwork agent --hub FILE` (its own process) syncs a platform repository served over
// git smart-HTTP to the run's control plane, which also plays the hub (installed with `groundwork
// hub bootstrap`, its controller `groundwork hub run` with its own ServiceAccount's rights). The
// agent registers, and its FleetMember's status shows what it applied; with the hub controller
// stopped, the agent's cycles go on.

const cluster = useCluster({ namespacePrefix: 'gw-hub-agent2' });
const ctx = useHub('fleetapp');

/** `groundwork agent --hub FILE` as its own process, following `repo`'s main into `ns`. */
function startAgent(ns: string, hubFile: string): { agent: ChildProcess; logs: () => string } {
  return startHubAgent({ repo: ctx.repo.url, namespace: ns, kubeconfig: cluster.kubeconfig, hub: hubFile });
}

describe('groundwork agent --hub', () => {
  it('registers, reports its revision and Ready to its FleetMember, and keeps syncing without the hub controller', async () => {
    const member = `site-${randomBytes(3).toString('hex')}`;
    const issued = await issueBootstrap(ctx.admin, {
      namespace: HUB_NAMESPACE,
      member,
      labels: { tier: 'canary' },
      environment: 'prod',
      ttlSeconds: 900,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
    writeFileSync(file, issued.kubeconfig, { mode: 0o600 });
    const ns = cluster.namespace;
    const first = await ctx.repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'first');

    // A MachineConfigPool on the agent's cluster: its counts go into the report.
    const poolName = `gw-hub-pool-${randomBytes(3).toString('hex')}`;
    const poolPath = `/apis/machineconfiguration.openshift.io/v1/machineconfigpools/${poolName}`;
    const pool = await ctx.admin.request<{ metadata: { resourceVersion: string } }>(
      'POST',
      '/apis/machineconfiguration.openshift.io/v1/machineconfigpools',
      {
        body: {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          kind: 'MachineConfigPool',
          metadata: { name: poolName },
          spec: { paused: false },
        },
      },
    );
    await ctx.admin.request('PUT', `${poolPath}/status`, {
      body: {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfigPool',
        metadata: { name: poolName, resourceVersion: pool.metadata.resourceVersion },
        spec: { paused: false },
        status: { machineCount: 3, updatedMachineCount: 2, readyMachineCount: 2, degradedMachineCount: 0 },
      },
    });
    const { agent, logs } = startAgent(ns, file);
    const fleetMember = async () =>
      readFleetMember(await ctx.admin.request('GET', HUB_PATHS.fleetMember(member), { schema: z.unknown() }));
    try {
      // Registered with the one-time token; the credentials are kept in the agent's namespace.
      const reported = await eventually(
        async () => {
          const fm = await fleetMember().catch(() => undefined);
          return fm?.report?.revision?.applied === `main@sha1:${first}` && fm.report.ready.status === 'True'
            ? fm
            : undefined;
        },
        90_000,
        'the FleetMember reports the first revision, Ready',
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\nagent log:\n${logs().slice(-4000)}`);
      });
      expect(reported.labels).toMatchObject({ tier: 'canary', [LABELS.environment]: 'prod' });
      expect(reported.report).toMatchObject({
        overlay: 'test',
        platform: 'fleetapp',
        source: { url: ctx.repo.url, ref: 'main' },
        ready: { status: 'True' },
      });
      expect(reported.report?.openshift?.pools).toContainEqual({
        name: poolName,
        machines: 3,
        updated: 2,
        ready: 2,
        degraded: 0,
        updating: false,
        paused: false,
      });
      await cluster.client.request('GET', `/api/v1/namespaces/${ns}/secrets/${HUB_CREDENTIALS_SECRET}`);
      // The report follows the PlatformSync the agent wrote.
      expect((await syncStatus(cluster))?.lastAppliedRevision).toBe(`main@sha1:${first}`);

      // `fleet status --hub`: the member's row from one LIST of the hub, nothing of the cluster read.
      const row = await eventually(
        async () => {
          const out = await groundwork([
            'fleet',
            'status',
            '--hub',
            runControlPlane().kubeconfig,
            '--selector',
            'tier=canary',
            '-o',
            'json',
          ]);
          expect(out, out.stderr).toMatchObject({ code: 0 });
          const members = (JSON.parse(out.stdout) as { members: { member: string; reachability: string }[] })
            .members;
          const mine = members.find((m) => m.member === member);
          return mine?.reachability === 'Reachable' ? mine : undefined;
        },
        30_000,
        'fleet status --hub shows the member Reachable',
      );
      expect(row).toMatchObject({
        environment: 'prod',
        overlay: 'test',
        revision: `main@sha1:${first}`,
        ready: 'True',
        lastSeen: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      const text = await groundwork(['fleet', 'status', '--hub', runControlPlane().kubeconfig]);
      expect(text.stdout).toMatch(new RegExp(`^${member}\\s+prod\\s+test\\s+\\S+\\s+True\\s`, 'm'));

      // The hub's controller stops: the agent goes on applying new revisions.
      await stopProcess(ctx.controller);
      ctx.controller = undefined;
      const second = await ctx.repo.publish({ namespace: ns, items: { a: '2' } }, {}, 'second');
      await eventually(
        async () =>
          (await syncStatus(cluster))?.lastAppliedRevision === `main@sha1:${second}` ? true : undefined,
        60_000,
        'the agent applies the second revision with the hub controller stopped',
      );
      const cm = await cluster.client.request<{ data?: Record<string, string> }>(
        'GET',
        `/api/v1/namespaces/${ns}/configmaps/a`,
      );
      expect(cm.data).toEqual({ value: '2' });
      // The hub's apiserver still takes the member's report (only the controller is down).
      await eventually(
        async () =>
          (await fleetMember()).report?.revision?.applied === `main@sha1:${second}` ? true : undefined,
        30_000,
        'the second revision reported',
      );
      expect(agent.exitCode).toBeNull();
    } finally {
      await stopProcess(agent);
      await ctx.admin.request('DELETE', poolPath).catch(() => undefined);
    }
  });

  it('goes on syncing when the hub cannot be reached, with a HubUnreachable Warning Event on its PlatformSync', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
    // Nothing listens on port 9 of loopback: the registration never reaches a hub.
    writeFileSync(
      file,
      bootstrapKubeconfig({
        server: 'https://127.0.0.1:9',
        bearer: 'registration-bearer',
        member: 'nowhere-1',
        token: `abcdef.${'A'.repeat(43)}`,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      { mode: 0o600 },
    );
    const ns = cluster.namespace;
    const sha = await ctx.repo.publish({ namespace: ns, items: { b: '1' } }, {}, 'unreachable hub');
    const { agent, logs } = startAgent(ns, file);
    try {
      await eventually(
        async () =>
          (await syncStatus(cluster))?.lastAppliedRevision === `main@sha1:${sha}` ? true : undefined,
        60_000,
        'the agent applies with the hub unreachable',
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\nagent log:\n${logs().slice(-4000)}`);
      });
      const event = await eventually(
        async () => {
          const list = await cluster.client.request('GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
            schema: z.object({
              items: z.array(
                z.looseObject({
                  reason: z.string().optional(),
                  type: z.string().optional(),
                  note: z.string().optional(),
                  regarding: z.looseObject({ kind: z.string().optional(), name: z.string().optional() }),
                }),
              ),
            }),
          });
          return list.items.find((e) => e.reason === 'HubUnreachable');
        },
        60_000,
        'a HubUnreachable Event',
      );
      expect(event).toMatchObject({
        type: 'Warning',
        regarding: { kind: 'PlatformSync', name: 'fleetapp-test' },
      });
      expect(logs()).toContain('cannot connect to the hub');
      expect(agent.exitCode).toBeNull();
    } finally {
      await stopProcess(agent);
    }
  });

  it('stops at once on SIGTERM while its registration waits for a hub controller that is not running', async () => {
    await stopProcess(ctx.controller);
    ctx.controller = undefined;
    const member = `wait-${randomBytes(3).toString('hex')}`;
    const issued = await issueBootstrap(ctx.admin, {
      namespace: HUB_NAMESPACE,
      member,
      labels: {},
      ttlSeconds: 900,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
    writeFileSync(file, issued.kubeconfig, { mode: 0o600 });
    const ns = cluster.namespace;
    const sha = await ctx.repo.publish({ namespace: ns, items: { c: '1' } }, {}, 'no controller');
    const { agent, logs } = startAgent(ns, file);
    const exited = new Promise<number | null>((r) => agent.once('exit', (code) => r(code)));
    // The agent syncs while its registration waits (the apiserver took it; nobody answers).
    await eventually(
      async () =>
        (await syncStatus(cluster))?.lastAppliedRevision === `main@sha1:${sha}` ? true : undefined,
      60_000,
      'the agent applies while registering',
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\nagent log:\n${logs().slice(-4000)}`);
    });
    await eventually(
      () =>
        ctx.admin
          .request('GET', HUB_PATHS.registrations(HUB_NAMESPACE), {
            schema: z.object({ items: z.array(z.object({ spec: z.object({ member: z.string() }) })) }),
          })
          .then((l) => (l.items.some((i) => i.spec.member === member) ? true : undefined)),
      30_000,
      'the registration created',
    );
    const stoppedAt = Date.now();
    agent.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
  });

  it('registers again with a new bootstrap kubeconfig once its member token has expired', async () => {
    ctx.controller ??= await startHubController(ctx.admin);
    const name = `exp-${randomBytes(3).toString('hex')}`;
    const token = () =>
      issueBootstrap(ctx.admin, { namespace: HUB_NAMESPACE, member: name, labels: {}, ttlSeconds: 900 });
    const file = join(mkdtempSync(join(tmpdir(), 'gw-hub-')), 'bootstrap.yaml');
    writeFileSync(file, (await token()).kubeconfig, { mode: 0o600 });
    const warnings: string[] = [];
    let skewMs = 0;
    const member = await HubMember.start({
      local: cluster.client,
      namespace: cluster.namespace,
      hub: file,
      log: { info: () => undefined, warn: (_o, m) => warnings.push(m ?? '') },
      pacing: { debounceMs: 100, minIntervalMs: 500 },
      now: () => Date.now() + skewMs,
    });
    try {
      expect(await member.registerAgainIfExpired()).toBe(false);
      skewMs = 25 * 3_600_000; // past the member token's 24 h
      // The spent bootstrap kubeconfig: refused, a warning naming the fix.
      expect(await member.registerAgainIfExpired()).toBe(false);
      expect(warnings.join('\n')).toContain('groundwork hub token create');
      // A new one in the same place: it registers again and reports with the new credentials.
      writeFileSync(file, (await token()).kubeconfig, { mode: 0o600 });
      expect(await member.registerAgainIfExpired()).toBe(true);
      member.report({ status: undefined, overlay: 'again', platform: 'kubernetes' });
      await member.flush();
      const fm = readFleetMember(
        await ctx.admin.request('GET', HUB_PATHS.fleetMember(name), { schema: z.unknown() }),
      );
      expect(fm.report).toMatchObject({ overlay: 'again' });
    } finally {
      await member.stop();
    }
  });
});
