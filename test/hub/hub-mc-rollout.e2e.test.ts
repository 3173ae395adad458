import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installCrds } from '../../src/cluster/crds.js';
import { KubeClient } from '../../src/cluster/client.js';
import { defaultCrdDirs } from '../../src/core/crd-dirs.js';
import { readObjects } from '../../src/core/yaml-files.js';
import { LocalControlPlane } from '../../src/dev/controlplane/control-plane.js';
import { McoSimulator } from '../../src/dev/simulators/mco.js';
import { HUB_NAMESPACE, HUB_PATHS } from '../../src/hub/hub-names.js';
import { issueBootstrap } from '../../src/hub/hub-token.js';
import { readFleetMember } from '../../src/hub/member-schema.js';
import { ROLLOUT_PATHS, readFleetRollout } from '../../src/hub/rollout-schema.js';
import { rfc3339 } from '../../src/hub/schema-parts.js';
import { groundwork } from '../harness/cli.js';
import { eventually } from '../harness/cluster.js';
import { stopProcess } from '../harness/hub.js';
import { bootstrapFile, startHubAgent, useHub } from '../harness/hub-agent.js';
import { runControlPlane } from '../harness/run-control-plane.js';

// Issue 34's "done when": a MachineConfig change rolled out by the hub through three real clusters.
// The run's control plane is the hub (`useHub`: installed with the CLI, `groundwork hub run`) and
// also the canary's cluster; `a` and `b` each get a control plane of their own (two more, lean on
// this 2-core machine). Every cluster runs the MCO simulator and a real `groundwork agent --hub
// FILE --hub-releases required` following one platform repository (git smart-HTTP) whose platform
// holds a MachineConfigPool and a MachineConfig. `b` is labelled with a maintenance window that is
// closed now, so the rollout holds it at the first revision.

const run = randomBytes(3).toString('hex');
const ENV = `mc-${run}`;
const POOL = `gwmc${run}`;
const ctx = useHub('mcapp');

const PLATFORM = `import { MachineConfig, MachineConfigPool, Platform, definePlatform, z } from 'groundwork-gitops';
export default definePlatform({
  values: z.object({ namespace: z.string(), items: z.record(z.string(), z.string()) }),
  build(scope, v) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    const pool = new MachineConfigPool(platform, 'pool', { name: '${POOL}', inheritsWorker: false });
    new MachineConfig(platform, 'motd', { pool, files: [{ path: '/etc/motd', contents: v.items.motd + '\\n' }] });
  },
});
`;

/** A day of the week that is not today (UTC): the window named `closed` is closed for the test. */
const notToday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][(new Date().getUTCDay() + 3) % 7];
const GROUNDWORK_YAML = `name: mcapp
environments:
  - name: ${ENV}
    overlays: [test]
    ref: main
    rollout:
      waves:
        - { name: canary, selector: { ring: canary } }
        - { name: rest }
      maxUnavailable: 100%
      bakeTime: 1s
      progressDeadline: 5m
      windows:
        - { name: closed, windows: [{ days: [${notToday}], start: '00:00', duration: 1h, timezone: UTC }] }
`;

interface Member {
  name: string;
  labels: Record<string, string>;
  client: KubeClient;
  kubeconfig: string;
  namespace: string;
  mco: McoSimulator;
  agent?: ChildProcess;
  logs?: () => string;
}
const MEMBERS = ['canary', 'a', 'b'] as const;
const members = {} as Record<(typeof MEMBERS)[number], Member>;
const extra: LocalControlPlane[] = [];
let dir: string;

const fleetMember = async (m: Member) =>
  readFleetMember(await ctx.admin.request('GET', HUB_PATHS.fleetMember(m.name), { schema: z.unknown() }));
const rollout = async (name: string) =>
  readFleetRollout(
    await ctx.admin.request('GET', ROLLOUT_PATHS.one(HUB_NAMESPACE, name), { schema: z.unknown() }),
  );
const pool = (m: Member) =>
  m.client.request<{
    spec: { configuration?: { name: string } };
    status?: { configuration?: { name: string }; machineCount?: number; updatedMachineCount?: number };
  }>('GET', `/apis/machineconfiguration.openshift.io/v1/machineconfigpools/${POOL}`);
/** The pool's rolled-out configuration, once every machine has it. */
const rolledTo = async (m: Member) => {
  const p = await pool(m);
  return p.status?.configuration?.name &&
    p.status.configuration.name === p.spec.configuration?.name &&
    p.status.updatedMachineCount === p.status.machineCount
    ? p.status.configuration.name
    : undefined;
};
const logsOf = (m: Member) => (err: unknown) => {
  throw new Error(`${String(err)}\n${m.name} agent log:\n${m.logs?.().slice(-4000) ?? ''}`);
};

/** Waits until `m` reports `commit` applied, Ready, its pool settled; returns its pool's configuration. */
async function applied(m: Member, commit: string): Promise<string> {
  await eventually(
    async () => {
      const r = (await fleetMember(m)).report;
      const p = r?.openshift?.pools?.find((x) => x.name === POOL);
      return r?.revision?.applied === `main@sha1:${commit}` &&
        r.ready.status === 'True' &&
        p &&
        !p.updating &&
        p.updated === p.machines
        ? true
        : undefined;
    },
    90_000,
    `${m.name} reports ${commit.slice(0, 8)} applied with its pool settled`,
  ).catch(logsOf(m));
  return eventually(() => rolledTo(m), 10_000, `${m.name}'s pool rolled`);
}

beforeAll(async () => {
  const [cpA, cpB] = await Promise.all(
    [0, 1].map(() => LocalControlPlane.start({ controllers: ['namespace'] })),
  );
  extra.push(cpA!, cpB!);
  const crds = (await Promise.all(defaultCrdDirs().map((d) => readObjects(d)))).flat();
  const clusters = [
    { kubeconfig: runControlPlane().kubeconfig, namespace: `gw-hub-mc-${run}` },
    { kubeconfig: cpA!.info.kubeconfig, namespace: 'groundwork-system' },
    { kubeconfig: cpB!.info.kubeconfig, namespace: 'groundwork-system' },
  ];
  const labels: Record<string, string>[] = [{ ring: 'canary' }, {}, { 'maintenance-window': 'closed' }];
  for (const [i, key] of MEMBERS.entries()) {
    const { kubeconfig, namespace } = clusters[i]!;
    const client = await KubeClient.load({ kubeconfig, userAgent: 'hub-mc-e2e' });
    if (i > 0) await installCrds(client, crds);
    await client.request('POST', '/api/v1/namespaces', { body: { metadata: { name: namespace } } });
    const mco = new McoSimulator(client, { pools: [POOL], nodes: { [POOL]: 2 } });
    mco.start(100);
    members[key] = { name: `${key}-${run}`, labels: labels[i]!, client, kubeconfig, namespace, mco };
  }
  dir = mkdtempSync(join(tmpdir(), 'gw-hub-mc-'));
  writeFileSync(join(dir, 'groundwork.yaml'), GROUNDWORK_YAML);
}, 180_000);

afterAll(async () => {
  for (const key of MEMBERS) await stopProcess(members[key]?.agent);
  for (const key of MEMBERS) await members[key]?.mco.stop();
  const canary = members.canary;
  if (canary) {
    // The run's control plane hosts other files next: remove what the canary's agent applied.
    const mcs = await canary.client
      .request<{ items: { metadata: { name: string } }[] }>(
        'GET',
        '/apis/machineconfiguration.openshift.io/v1/machineconfigs',
      )
      .catch(() => ({ items: [] }));
    for (const mc of mcs.items.filter((x) => x.metadata.name.includes(POOL)))
      await canary.client
        .request('DELETE', `/apis/machineconfiguration.openshift.io/v1/machineconfigs/${mc.metadata.name}`)
        .catch(() => undefined);
    await canary.client
      .request('DELETE', `/apis/machineconfiguration.openshift.io/v1/machineconfigpools/${POOL}`)
      .catch(() => undefined);
    await canary.client.request('DELETE', `/api/v1/namespaces/${canary.namespace}`).catch(() => undefined);
  }
  for (const key of MEMBERS) members[key]?.client.close();
  await Promise.all(extra.map((cp) => cp.stop().catch(() => undefined)));
});

describe('a MachineConfig rollout through three real clusters', () => {
  it('goes to the canary first, then wave 2, and holds the member whose window is closed at rev1', async () => {
    const rev1 = await ctx.repo.publish(
      { namespace: 'x', items: { motd: 'v1' } },
      { 'platform/main.ts': PLATFORM },
    );
    for (const key of MEMBERS) {
      const m = members[key];
      const issued = await issueBootstrap(ctx.admin, {
        namespace: HUB_NAMESPACE,
        member: m.name,
        labels: m.labels,
        environment: ENV,
        ttlSeconds: 900,
      });
      ({ agent: m.agent, logs: m.logs } = startHubAgent({
        repo: ctx.repo.url,
        namespace: m.namespace,
        kubeconfig: m.kubeconfig,
        hub: bootstrapFile(issued.kubeconfig),
        args: ['--hub-releases', 'required', '--sync-name', `mc-${key}`],
      }));
    }
    // The fleet's starting point: rev1 released to every member (as an earlier rollout would).
    for (const key of MEMBERS) {
      const m = members[key];
      await eventually(() => fleetMember(m).catch(() => undefined), 90_000, `${m.name} registered`).catch(
        logsOf(m),
      );
      await ctx.admin.request('PATCH', HUB_PATHS.fleetMember(m.name), {
        body: {
          spec: {
            release: {
              revision: `main@sha1:${rev1}`,
              rollout: 'initial',
              wave: 0,
              releasedAt: rfc3339(Date.now()),
            },
          },
        },
        contentType: 'application/merge-patch+json',
      });
    }
    const at1 = {} as Record<(typeof MEMBERS)[number], string>;
    for (const key of MEMBERS) at1[key] = await applied(members[key], rev1);

    // rev2 changes the MachineConfig; the rollout says so.
    const rev2 = await ctx.repo.publish(
      { namespace: 'x', items: { motd: 'v2' } },
      { 'platform/main.ts': PLATFORM },
    );
    const started = await groundwork([
      'fleet',
      'rollout',
      'start',
      ENV,
      '--revision',
      rev2,
      '--changes',
      'machine-config',
      '--dir',
      dir,
      '--hub',
      runControlPlane().kubeconfig,
      '-o',
      'json',
    ]);
    expect(started, started.stderr).toMatchObject({ code: 0 });
    const name = (JSON.parse(started.stdout) as { metadata: { name: string } }).metadata.name;
    const released = async (m: Member) => {
      const r = (await fleetMember(m)).spec.release;
      return r?.rollout === name ? r : undefined;
    };

    // Wave 1: the canary only; its pool rolls to a new configuration through the simulator.
    const canaryRelease = await eventually(() => released(members.canary), 20_000, 'the canary released');
    expect(canaryRelease).toMatchObject({ revision: `main@sha1:${rev2}`, wave: 0 });
    const canaryAt2 = await applied(members.canary, rev2);
    expect(canaryAt2).not.toBe(at1.canary);

    // Wave 2 only after the canary succeeded (and baked); `a` applies it, its pool rolls.
    const aRelease = await eventually(() => released(members.a), 30_000, 'wave 2 released to a');
    expect(aRelease.wave).toBe(1);
    const aAt2 = await applied(members.a, rev2);
    expect(aAt2).not.toBe(at1.a);
    // A held member keeps its wave open (it is released once its window opens): the rollout is
    // still Progressing, with `a` succeeded and `b` held by name, for its window.
    const status = await eventually(
      async () => {
        const st = (await rollout(name)).status;
        const a = st?.members?.find((x) => x.name === members.a.name);
        return a?.state === 'Succeeded' ? st : undefined;
      },
      30_000,
      'the rollout sees a succeeded',
    );
    expect(status).toMatchObject({ phase: 'Progressing', currentWave: 1 });
    expect(status.waves).toMatchObject([
      { name: 'canary', state: 'Completed', members: 1, succeeded: 1 },
      { name: 'rest', state: 'Progressing', members: 2, succeeded: 1, held: 1, failed: 0 },
    ]);
    const state = (m: Member) => status.members?.find((x) => x.name === m.name);
    expect(Date.parse(state(members.a)!.releasedAt!)).toBeGreaterThanOrEqual(
      Date.parse(state(members.canary)!.succeededAt!),
    );
    expect(state(members.canary)).toMatchObject({ state: 'Succeeded', wave: 0 });
    expect(state(members.a)).toMatchObject({ state: 'Succeeded', wave: 1 });
    expect(state(members.b)).toMatchObject({ state: 'Held', reason: 'OutsideWindow', wave: 1 });

    // `b` is held: no release of this rollout, still at rev1 with its pool unchanged, rev2 waiting.
    expect(await released(members.b)).toBeUndefined();
    const bReport = await eventually(
      async () => {
        const r = (await fleetMember(members.b)).report;
        return r?.revision?.attempted === `main@sha1:${rev2}` ? r : undefined;
      },
      30_000,
      'b reports rev2 as waiting',
    ).catch(logsOf(members.b));
    expect(bReport.revision?.applied).toBe(`main@sha1:${rev1}`);
    expect(await rolledTo(members.b)).toBe(at1.b);

    const text = await groundwork([
      'fleet',
      'rollout',
      'status',
      name,
      '--hub',
      runControlPlane().kubeconfig,
    ]);
    expect(text, text.stderr).toMatchObject({ code: 0 });
    expect(text.stdout).toContain('phase: Progressing');
    expect(text.stdout).toMatch(new RegExp(`${members.b.name}.*OutsideWindow`));
  }, 300_000);
});
