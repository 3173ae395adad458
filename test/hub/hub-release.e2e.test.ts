import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HUB_NAMESPACE, HUB_PATHS } from '../../src/hub/hub-names.js';
import { issueBootstrap } from '../../src/hub/hub-token.js';
import { HUB_CREDENTIALS_SECRET } from '../../src/hub/member-credentials-store.js';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { rfc3339 } from '../../src/hub/schema-parts.js';
import { syncStatus } from '../harness/agent-run.js';
import { eventually, useCluster } from '../harness/cluster.js';
import { stopProcess } from '../harness/hub.js';
import { bootstrapFile, startHubAgent, useHub } from '../harness/hub-agent.js';

// The agent's side of the hub's releases (issue 34): a real `groundwork agent --hub FILE
// --hub-releases required` against the run's control plane as the hub. The test plays the hub's
// rollout controller: it writes the member's FleetMember spec.release as admin. The agent applies
// nothing before a release, holds a newer commit of main (healing drift at the release) until it
// is released, refuses a release of a commit that is not on main, and after a restart with the hub
// unreachable stays at the release it took up.

const cluster = useCluster({ namespacePrefix: 'gw-hub-release' });
const ctx = useHub('relapp');

describe('groundwork agent --hub --hub-releases required', () => {
  it('applies only what the hub released, on its branch, and holds it without the hub', async () => {
    const member = `rel-${randomBytes(3).toString('hex')}`;
    const issued = await issueBootstrap(ctx.admin, {
      namespace: HUB_NAMESPACE,
      member,
      labels: {},
      environment: 'prod',
      ttlSeconds: 900,
    });
    const ns = cluster.namespace;
    const cm = async () =>
      (
        await cluster.client.request<{ data?: Record<string, string> }>(
          'GET',
          `/api/v1/namespaces/${ns}/configmaps/a`,
        )
      ).data?.value;
    const fleetMember = async () =>
      readFleetMember(await ctx.admin.request('GET', HUB_PATHS.fleetMember(member), { schema: z.unknown() }));
    const release = (commit: string) =>
      ctx.admin.request('PATCH', HUB_PATHS.fleetMember(member), {
        body: {
          spec: {
            release: {
              revision: `main@sha1:${commit}`,
              rollout: 'prod-test',
              wave: 0,
              releasedAt: rfc3339(Date.now()),
            },
          },
        },
        contentType: 'application/merge-patch+json',
      });
    const rev1 = await ctx.repo.publish({ namespace: ns, items: { a: '1' } }, {}, 'first');
    const cacheDir = mkdtempSync(join(tmpdir(), 'gw-hub-release-cache-'));
    const start = () =>
      startHubAgent({
        repo: ctx.repo.url,
        namespace: ns,
        kubeconfig: cluster.kubeconfig,
        hub: bootstrapFile(issued.kubeconfig),
        args: ['--hub-releases', 'required', '--sync-name', 'relapp-test'],
        cacheDir,
      });
    let { agent, logs } = start();
    const withLogs = (err: unknown) => {
      throw new Error(`${String(err)}\nagent log:\n${logs().slice(-4000)}`);
    };
    try {
      // Nothing released yet: nothing applied; the member reports main's tip as waiting.
      const waiting = await eventually(
        async () => {
          const fm = await fleetMember().catch(() => undefined);
          return fm?.report?.revision?.attempted === `main@sha1:${rev1}` ? fm : undefined;
        },
        90_000,
        'the member reports the first commit as waiting',
      ).catch(withLogs);
      expect(waiting.report?.revision?.applied).toBeUndefined();
      expect((await syncStatus(cluster))?.conditions).toContainEqual(
        expect.objectContaining({ type: 'Ready', status: 'False', reason: 'ReleasePending' }),
      );
      await expect(cm()).rejects.toThrow();

      // Released: applied.
      await release(rev1);
      await eventually(
        async () => ((await cm().catch(() => undefined)) === '1' ? true : undefined),
        60_000,
        'rev1 applied',
      ).catch(withLogs);

      // main moves on: the newer commit waits for the hub; drift is healed at the release.
      const rev2 = await ctx.repo.publish({ namespace: ns, items: { a: '2' } }, {}, 'second');
      const held = await eventually(
        async () => {
          const r = (await fleetMember()).report;
          return r?.revision?.attempted === `main@sha1:${rev2}` && r.ready.status === 'True' ? r : undefined;
        },
        60_000,
        'the member reports rev2 waiting, rev1 applied and Ready',
      ).catch(withLogs);
      expect(held.revision?.applied).toBe(`main@sha1:${rev1}`);
      await cluster.client.request('PATCH', `/api/v1/namespaces/${ns}/configmaps/a`, {
        body: { data: { value: 'edited' } },
        contentType: 'application/merge-patch+json',
      });
      await eventually(async () => ((await cm()) === '1' ? true : undefined), 60_000, 'drift healed at rev1');
      expect((await syncStatus(cluster))?.lastAppliedRevision).toBe(`main@sha1:${rev1}`);

      // Released: the agent takes rev2 up at once.
      await release(rev2);
      await eventually(async () => ((await cm()) === '2' ? true : undefined), 60_000, 'rev2 applied');

      // A release of a commit that is not on main: refused, the cluster stays at rev2.
      ctx.repo.repo.checkout('attacker');
      ctx.repo.repo.writeFiles({
        'overlays/test.yaml': JSON.stringify({ namespace: ns, items: { a: 'evil' } }),
      });
      const evil = ctx.repo.repo.commit('not on main');
      ctx.repo.repo.checkout('main');
      await ctx.repo.repo.push();
      await release(evil);
      await eventually(
        async () =>
          (await syncStatus(cluster))?.conditions?.some(
            (c) => c.type === 'Ready' && c.reason === 'ReleaseRefused' && c.message.includes(evil),
          )
            ? true
            : undefined,
        60_000,
        'the release of a commit not on main is refused',
      ).catch(withLogs);
      expect(await cm()).toBe('2');
      // The event is recorded after the status is written (the recorder posts it on its own): wait for it.
      await eventually(
        async () => {
          const events = await cluster.client.request(
            'GET',
            `/apis/events.k8s.io/v1/namespaces/${ns}/events`,
            {
              schema: z.object({ items: z.array(z.looseObject({ reason: z.string().optional() })) }),
            },
          );
          return events.items.some((e) => e.reason === 'ReleaseRefused') ? true : undefined;
        },
        30_000,
        'a ReleaseRefused event',
      ).catch(withLogs);
      await eventually(
        async () => ((await fleetMember()).report?.ready.reason === 'ReleaseRefused' ? true : undefined),
        30_000,
        'the member reports the refusal',
      );

      // Restarted with the hub unreachable: it holds rev2 (the release it took up), not main's tip.
      await stopProcess(agent);
      const secretPath = `/api/v1/namespaces/${ns}/secrets/${HUB_CREDENTIALS_SECRET}`;
      await cluster.client.request('PATCH', secretPath, {
        body: { stringData: { server: 'https://127.0.0.1:9' } },
        contentType: 'application/merge-patch+json',
      });
      const rev3 = await ctx.repo.publish({ namespace: ns, items: { a: '3' } }, {}, 'third');
      ({ agent, logs } = start());
      // Ready again at rev2: neither ReleasePending (the kept release was read) nor ReleaseRefused.
      await eventually(
        async () =>
          (await syncStatus(cluster))?.conditions?.some(
            (c) => c.type === 'Ready' && c.status === 'True' && c.message.includes(rev2),
          )
            ? true
            : undefined,
        60_000,
        'Ready at rev2 after the restart',
      ).catch(withLogs);
      expect(logs()).toContain(`"waiting":"main@sha1:${rev3}"`);
      expect(logs()).toContain('cannot connect to the hub');
      expect(await cm()).toBe('2');
      expect((await syncStatus(cluster))?.lastAppliedRevision).toBe(`main@sha1:${rev2}`);
      expect(agent.exitCode).toBeNull();
    } finally {
      await stopProcess(agent);
    }
  });
});
